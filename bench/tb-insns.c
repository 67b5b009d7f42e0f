// SPDX-License-Identifier: GPL-2.0-only
/*
 * tb-insns: a QEMU TCG plugin that counts the guest instructions each
 * translation block start address executes, for bench/run's breakdown of
 * an operation's instructions into firmware, driver, perf core, the rest
 * of the kernel and user space (bench/tb-categories.py).
 *
 *   qemu-system-riscv64 ... -plugin tb-insns.so,out=FILE
 *
 * At exit FILE holds one line per block that ran: its start address
 * (hex), its instructions and how many times it ran.  A block is
 * counted whole each time it starts, so an exception in its middle
 * counts the instructions after it too: a few per trap.  Under -icount
 * the plugin changes nothing the guest counts.
 *
 * QEMU's plugin API is declared here, the part this plugin uses: Debian
 * ships no qemu-plugin.h.  The API has kept these functions as they are
 * since its version 1; QEMU loads a plugin of any version from its
 * minimum (2 in QEMU 10) up.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);
enum { QEMU_PLUGIN_CB_NO_REGS };

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, vcpu_udata_cb_t cb,
					  int flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb, void *userdata);

PLUGIN_EXPORT int qemu_plugin_version = 2;

/* One per translation; a block translated again gets another. */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t runs;
	struct block *next;
};

static struct block *blocks;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static char *out_path = "tb-insns.out";

static void block_ran(unsigned int vcpu_index, void *userdata)
{
	struct block *b = userdata;

	(void)vcpu_index;
	__atomic_add_fetch(&b->runs, 1, __ATOMIC_RELAXED);
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = calloc(1, sizeof(*b));

	(void)id;
	if (!b)
		abort();
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = qemu_plugin_tb_n_insns(tb);
	pthread_mutex_lock(&blocks_lock);
	b->next = blocks;
	blocks = b;
	pthread_mutex_unlock(&blocks_lock);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void write_counts(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");
	struct block *b;

	(void)id;
	(void)userdata;
	if (!f) {
		perror(out_path);
		return;
	}
	pthread_mutex_lock(&blocks_lock);
	for (b = blocks; b; b = b->next)
		if (b->runs)
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				b->vaddr, b->insns, b->runs);
	pthread_mutex_unlock(&blocks_lock);
	fclose(f);
}

PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const void *info,
				      int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4)) {
			fprintf(stderr, "tb-insns: unknown argument '%s' (out=FILE)\n", argv[i]);
			return -1;
		}
		out_path = strdup(argv[i] + 4);
		if (!out_path)
			return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
	qemu_plugin_register_atexit_cb(id, write_counts, NULL);
	return 0;
}
