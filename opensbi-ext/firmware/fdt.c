// SPDX-License-Identifier: BSD-2-Clause
/*
 * Just enough flattened-device-tree handling for the firmware:
 *  - fdt_scan() reads the harts (/cpus/cpu@N), the first memory bank and
 *    the initrd location;
 *  - fdt_reserve_firmware() adds a no-map /reserved-memory child covering
 *    the firmware, so Linux never allocates, maps or overwrites it.
 *
 * The editor grows the blob in place.  QEMU puts the tree at the start of
 * a 2 MiB aligned block at the top of RAM with nothing after it, and the
 * kernel reserves the tree by its header's totalsize, so the added bytes
 * (a few hundred) are covered.  We still check that they stay in RAM and
 * clear of the firmware and the initrd before writing anything.
 */
#include "fw.h"

#define FDT_MAGIC	0xd00dfeed
#define FDT_BEGIN_NODE	1
#define FDT_END_NODE	2
#define FDT_PROP	3
#define FDT_NOP		4
#define FDT_END		9

/* Header fields, as offsets of big-endian u32s. */
#define H_MAGIC		0
#define H_TOTALSIZE	4
#define H_OFF_STRUCT	8
#define H_OFF_STRINGS	12
#define H_OFF_RSVMAP	16
#define H_VERSION	20
#define H_SIZE_STRINGS	32
#define H_SIZE_STRUCT	36

/* Refuse anything larger: QEMU's trees are a few kilobytes. */
#define FDT_MAX_SIZE	(1U << 20)

static u32 be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static void put_be32(void *p, u32 v)
{
	u8 *b = p;

	b[0] = (u8)(v >> 24);
	b[1] = (u8)(v >> 16);
	b[2] = (u8)(v >> 8);
	b[3] = (u8)v;
}

static u32 hdr(ulong fdt, int field)
{
	return be32((const u8 *)fdt + field);
}

static void set_hdr(ulong fdt, int field, u32 v)
{
	put_be32((u8 *)fdt + field, v);
}

static u32 align4(u32 x)
{
	return (x + 3) & ~3U;
}

static int fdt_valid(ulong fdt)
{
	u32 total, soff, ssize, stroff, strsize;

	if (!fdt || (fdt & 7) || hdr(fdt, H_MAGIC) != FDT_MAGIC ||
	    hdr(fdt, H_VERSION) < 17)
		return 0;
	total = hdr(fdt, H_TOTALSIZE);
	soff = hdr(fdt, H_OFF_STRUCT);
	ssize = hdr(fdt, H_SIZE_STRUCT);
	stroff = hdr(fdt, H_OFF_STRINGS);
	strsize = hdr(fdt, H_SIZE_STRINGS);
	return total <= FDT_MAX_SIZE && soff < total && ssize <= total - soff &&
	       stroff <= total && strsize <= total - stroff;
}

/* One token of the structure block. */
struct tok {
	u32 type;
	u32 off;		/* of the token in the structure block */
	const char *name;	/* node or property name */
	const u8 *data;		/* property value */
	u32 len;
};

struct walker {
	ulong fdt;
	const u8 *s;		/* structure block */
	u32 size, off;
	const char *strings;
	u32 strsize;
};

static void walk_init(struct walker *w, ulong fdt)
{
	w->fdt = fdt;
	w->s = (const u8 *)fdt + hdr(fdt, H_OFF_STRUCT);
	w->size = hdr(fdt, H_SIZE_STRUCT);
	w->off = 0;
	w->strings = (const char *)fdt + hdr(fdt, H_OFF_STRINGS);
	w->strsize = hdr(fdt, H_SIZE_STRINGS);
}

/* Next token other than NOP; 0 at the end or on a malformed tree. */
static int walk_next(struct walker *w, struct tok *t)
{
	for (;;) {
		u32 type, n;

		if (w->off + 4 > w->size)
			return 0;
		type = be32(w->s + w->off);
		t->type = type;
		t->off = w->off;
		w->off += 4;
		switch (type) {
		case FDT_NOP:
			continue;
		case FDT_BEGIN_NODE:
			t->name = (const char *)w->s + w->off;
			for (n = 0; w->off + n < w->size && t->name[n]; n++)
				;
			if (w->off + n >= w->size)
				return 0;
			w->off = align4(w->off + n + 1);
			return 1;
		case FDT_END_NODE:
			return 1;
		case FDT_PROP:
			if (w->off + 8 > w->size)
				return 0;
			t->len = be32(w->s + w->off);
			n = be32(w->s + w->off + 4);
			if (n >= w->strsize || t->len > w->size - w->off - 8)
				return 0;
			t->name = w->strings + n;
			t->data = w->s + w->off + 8;
			w->off = align4(w->off + 8 + t->len);
			return 1;
		default:		/* FDT_END or garbage */
			return 0;
		}
	}
}

/* Read a 1- or 2-cell number. */
static u64 read_cells(const u8 *p, u32 cells)
{
	return cells == 2 ? (u64)be32(p) << 32 | be32(p + 4) : be32(p);
}

static int prefix(const char *s, const char *p)
{
	while (*p)
		if (*s++ != *p++)
			return 0;
	return *s == 0 || *s == '@';
}

/* What one pass over the tree learns (see fdt_scan and the editor). */
struct fdt_info {
	u32 root_ac, root_sc;		/* root #address-cells/#size-cells */
	u32 cpus_ac;
	u64 mem_base, mem_size;
	u64 initrd_start, initrd_end;
	u32 hart_mask;
	int root_end;			/* offset of the root's END_NODE */
	int resv_end;			/* of /reserved-memory's END_NODE */
	u32 resv_ac, resv_sc;
};

static int fdt_parse(ulong fdt, struct fdt_info *fi)
{
	struct walker w;
	struct tok t;
	const char *path[4] = { 0 };
	int depth = 0;
	/* the /cpus/cpu node being read */
	int cpu_is_cpu = 0, cpu_ok = 1;
	u32 cpu_reg = ~0U;
	int mem_is_mem = 0;
	const u8 *mem_reg = 0;
	u32 mem_len = 0;

	memset(fi, 0, sizeof(*fi));
	fi->root_ac = 2;
	fi->root_sc = 1;
	fi->cpus_ac = 1;
	fi->root_end = fi->resv_end = -1;
	if (!fdt_valid(fdt))
		return -1;
	walk_init(&w, fdt);
	while (walk_next(&w, &t)) {
		if (t.type == FDT_BEGIN_NODE) {
			if (depth < 4)
				path[depth] = t.name;
			depth++;
			if (depth == 3 && prefix(path[1], "cpus")) {
				cpu_is_cpu = 0;
				cpu_ok = 1;
				cpu_reg = ~0U;
			}
			if (depth == 2) {
				mem_is_mem = 0;
				mem_reg = 0;
				if (prefix(t.name, "reserved-memory")) {
					fi->resv_ac = fi->root_ac;
					fi->resv_sc = fi->root_sc;
				}
			}
			continue;
		}
		if (t.type == FDT_END_NODE) {
			if (depth == 1) {
				fi->root_end = (int)t.off;
				break;
			}
			if (depth == 3 && prefix(path[1], "cpus") &&
			    cpu_is_cpu && cpu_ok && cpu_reg < FW_MAX_HARTS)
				fi->hart_mask |= 1U << cpu_reg;
			if (depth == 2 && prefix(path[1], "reserved-memory"))
				fi->resv_end = (int)t.off;
			if (depth == 2 && mem_is_mem && mem_reg && !fi->mem_size &&
			    mem_len >= 4 * (fi->root_ac + fi->root_sc)) {
				fi->mem_base = read_cells(mem_reg, fi->root_ac);
				fi->mem_size = read_cells(mem_reg + 4 * fi->root_ac,
							  fi->root_sc);
			}
			depth--;
			continue;
		}
		/* property of the node at path[depth - 1] */
		if (depth == 1) {
			if (!strcmp(t.name, "#address-cells") && t.len == 4)
				fi->root_ac = be32(t.data);
			if (!strcmp(t.name, "#size-cells") && t.len == 4)
				fi->root_sc = be32(t.data);
		} else if (depth == 2 && prefix(path[1], "cpus")) {
			if (!strcmp(t.name, "#address-cells") && t.len == 4)
				fi->cpus_ac = be32(t.data);
		} else if (depth == 2 && prefix(path[1], "chosen")) {
			if (!strcmp(t.name, "linux,initrd-start") &&
			    (t.len == 4 || t.len == 8))
				fi->initrd_start = read_cells(t.data, t.len / 4);
			if (!strcmp(t.name, "linux,initrd-end") &&
			    (t.len == 4 || t.len == 8))
				fi->initrd_end = read_cells(t.data, t.len / 4);
		} else if (depth == 2 && prefix(path[1], "reserved-memory")) {
			if (!strcmp(t.name, "#address-cells") && t.len == 4)
				fi->resv_ac = be32(t.data);
			if (!strcmp(t.name, "#size-cells") && t.len == 4)
				fi->resv_sc = be32(t.data);
		} else if (depth == 2) {
			if (!strcmp(t.name, "device_type") &&
			    !strcmp((const char *)t.data, "memory"))
				mem_is_mem = 1;
			if (!strcmp(t.name, "reg")) {
				mem_reg = t.data;
				mem_len = t.len;
			}
		} else if (depth == 3 && prefix(path[1], "cpus")) {
			if (!strcmp(t.name, "device_type") &&
			    !strcmp((const char *)t.data, "cpu"))
				cpu_is_cpu = 1;
			if (!strcmp(t.name, "status") &&
			    strcmp((const char *)t.data, "okay") &&
			    strcmp((const char *)t.data, "ok"))
				cpu_ok = 0;
			if (!strcmp(t.name, "reg") && t.len >= 4 * fi->cpus_ac &&
			    fi->cpus_ac >= 1 && fi->cpus_ac <= 2)
				cpu_reg = (u32)read_cells(t.data, fi->cpus_ac);
		}
	}
	if (fi->root_end < 0 || fi->root_ac < 1 || fi->root_ac > 2 ||
	    fi->root_sc < 1 || fi->root_sc > 2)
		return -1;
	return 0;
}

int fdt_scan(ulong fdt, struct machine *m)
{
	struct fdt_info fi;

	if (fdt_parse(fdt, &fi))
		return -1;
	m->fdt = fdt;
	m->hart_mask = fi.hart_mask;
	m->mem_base = (ulong)fi.mem_base;
	m->mem_size = (ulong)fi.mem_size;
	return 0;
}

/* Growing buffers for the bytes to insert. */
struct buf {
	u8 *p;
	u32 len, cap;
	int overflow;
};

static void put_bytes(struct buf *b, const void *src, u32 n)
{
	if (b->len + n > b->cap) {
		b->overflow = 1;
		return;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

static void put_u32(struct buf *b, u32 v)
{
	u8 x[4];

	put_be32(x, v);
	put_bytes(b, x, 4);
}

static void put_pad(struct buf *b)
{
	static const u8 zero[4];

	put_bytes(b, zero, align4(b->len) - b->len);
}

/*
 * Offset of name in the strings block, appending it to 'extra' (the new
 * strings) if the block does not have it yet.  Any NUL-terminated
 * suffix of an existing string will do, as in every FDT reader.
 */
static u32 string_off(ulong fdt, struct buf *extra, const char *name)
{
	const char *s = (const char *)fdt + hdr(fdt, H_OFF_STRINGS);
	u32 size = hdr(fdt, H_SIZE_STRINGS), n = (u32)strlen(name) + 1, i;

	for (i = 0; i + n <= size; i++)
		if (!memcmp(s + i, name, n))
			return i;
	for (i = 0; i + n <= extra->len; i++)
		if (!memcmp(extra->p + i, name, n))
			return size + i;
	i = extra->len;
	put_bytes(extra, name, n);
	return size + i;
}

static void put_prop(ulong fdt, struct buf *b, struct buf *strs,
		     const char *name, const u32 *cells, u32 ncells)
{
	u32 i;

	put_u32(b, FDT_PROP);
	put_u32(b, 4 * ncells);
	put_u32(b, string_off(fdt, strs, name));
	for (i = 0; i < ncells; i++)
		put_u32(b, cells[i]);
}

static void put_node(struct buf *b, const char *name)
{
	put_u32(b, FDT_BEGIN_NODE);
	put_bytes(b, name, (u32)strlen(name) + 1);
	put_pad(b);
}

static char hexdig(unsigned int d)
{
	return (char)(d < 10 ? '0' + d : 'a' + d - 10);
}

int fdt_reserve_firmware(ulong fdt, ulong base, ulong size,
			 const struct machine *m)
{
	struct fdt_info fi;
	u8 sbuf[256], xbuf[64];
	struct buf b = { sbuf, 0, sizeof(sbuf), 0 };
	struct buf strs = { xbuf, 0, sizeof(xbuf), 0 };
	char name[32] = "hpmfw@";
	u32 cells[4], ac, sc, at, total, stroff, strsize, new_end, i, n;
	ulong end_addr;
	int shift;

	if (fdt_parse(fdt, &fi))
		return -1;

	/* "hpmfw@<base in hex>", the node name the binding asks for */
	n = (u32)strlen(name);
	for (shift = __riscv_xlen - 4; shift > 0 && !((base >> shift) & 15);
	     shift -= 4)
		;
	for (; shift >= 0; shift -= 4)
		name[n++] = hexdig((unsigned int)(base >> shift) & 15);
	name[n] = 0;

	if (fi.resv_end < 0) {
		/* a new /reserved-memory, same cells as the root */
		ac = fi.root_ac;
		sc = fi.root_sc;
		put_node(&b, "reserved-memory");
		cells[0] = ac;
		put_prop(fdt, &b, &strs, "#address-cells", cells, 1);
		cells[0] = sc;
		put_prop(fdt, &b, &strs, "#size-cells", cells, 1);
		put_prop(fdt, &b, &strs, "ranges", cells, 0);
		at = (u32)fi.root_end;
	} else {
		ac = fi.resv_ac;
		sc = fi.resv_sc;
		at = (u32)fi.resv_end;
		if (ac < 1 || ac > 2 || sc < 1 || sc > 2)
			return -1;
	}
	put_node(&b, name);
	i = 0;
	if (ac == 2)
		cells[i++] = (u32)((u64)base >> 32);
	cells[i++] = (u32)base;
	if (sc == 2)
		cells[i++] = (u32)((u64)size >> 32);
	cells[i++] = (u32)size;
	put_prop(fdt, &b, &strs, "reg", cells, i);
	put_prop(fdt, &b, &strs, "no-map", cells, 0);
	put_u32(&b, FDT_END_NODE);
	if (fi.resv_end < 0)
		put_u32(&b, FDT_END_NODE);
	if (b.overflow || strs.overflow)
		return -1;

	/* Only the usual layout: header, rsvmap, structure, strings. */
	total = hdr(fdt, H_TOTALSIZE);
	stroff = hdr(fdt, H_OFF_STRINGS);
	strsize = hdr(fdt, H_SIZE_STRINGS);
	if (stroff < hdr(fdt, H_OFF_STRUCT) + hdr(fdt, H_SIZE_STRUCT) ||
	    hdr(fdt, H_OFF_RSVMAP) > hdr(fdt, H_OFF_STRUCT))
		return -1;
	new_end = (stroff + b.len + strsize + strs.len + 7) & ~7U;
	if (new_end < total)
		new_end = total;

	/* The grown blob must stay in RAM, clear of firmware and initrd. */
	end_addr = fdt + new_end;
	if (end_addr < fdt || fdt < m->mem_base ||
	    end_addr > m->mem_base + m->mem_size ||
	    (fdt < base + size && end_addr > base))
		return -1;
	if (fi.initrd_end > fi.initrd_start &&
	    fi.initrd_start < end_addr && fi.initrd_end > fdt + total)
		return -1;

	/* Open a gap at 'at' in the structure block; strings follow it. */
	at += hdr(fdt, H_OFF_STRUCT);
	memmove((u8 *)fdt + at + b.len, (u8 *)fdt + at,
		stroff + strsize - at);
	memcpy((u8 *)fdt + at, b.p, b.len);
	memcpy((u8 *)fdt + stroff + b.len + strsize, strs.p, strs.len);
	memset((u8 *)fdt + stroff + b.len + strsize + strs.len, 0,
	       new_end - (stroff + b.len + strsize + strs.len));
	set_hdr(fdt, H_SIZE_STRUCT, hdr(fdt, H_SIZE_STRUCT) + b.len);
	set_hdr(fdt, H_OFF_STRINGS, stroff + b.len);
	set_hdr(fdt, H_SIZE_STRINGS, strsize + strs.len);
	set_hdr(fdt, H_TOTALSIZE, new_end);
	return 0;
}
