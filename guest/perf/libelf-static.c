// SPDX-License-Identifier: GPL-2.0
/*
 * What Debian's libelf.a (trixie, elfutils 0.192) calls and neither it
 * nor the cross toolchain's C library (bookworm's glibc 2.36) has, for
 * linking the guest's perf statically.  (Linking against trixie's
 * glibc instead crashes bookworm's ld.)
 *
 * Since elfutils 0.191, libelf keeps its trees through eu_tsearch() and
 * friends, which live in elfutils' internal libeu; Debian's libelf.so
 * carries them, its libelf.a does not.  These wrap the C library's
 * tsearch(3) family, with one lock for all trees where elfutils has one
 * per tree.  Only the tree's first member, the root, is used: whatever
 * lock follows it in libelf's layout is left alone.
 *
 * glibc 2.38 and later name strtol() __isoc23_strtol() when compiling
 * for C23 or GNU extensions; the C23 difference (a "0b" prefix with base
 * 0 or 2) does not arise in what libelf parses (ar headers' decimal
 * fields).
 */
#define _GNU_SOURCE	/* tdestroy() */
#include <pthread.h>
#include <search.h>
#include <stdlib.h>

struct eu_search_tree {
	void *root;
};

typedef int (*eu_compar_fn)(const void *, const void *);

static pthread_mutex_t eu_search_lock = PTHREAD_MUTEX_INITIALIZER;

/* The four libelf.a calls (elf_begin, elf_getdata_rawchunk, elf_end). */
void eu_search_tree_init(struct eu_search_tree *tree);
void eu_search_tree_fini(struct eu_search_tree *tree,
			 void (*free_node)(void *));
void *eu_tsearch(const void *key, struct eu_search_tree *tree,
		 eu_compar_fn compar);
void *eu_tdelete(const void *key, struct eu_search_tree *tree,
		 eu_compar_fn compar);

void eu_search_tree_init(struct eu_search_tree *tree)
{
	tree->root = NULL;
}

/* Destroys the tree, each node's data freed by free_node. */
void eu_search_tree_fini(struct eu_search_tree *tree,
			 void (*free_node)(void *))
{
	pthread_mutex_lock(&eu_search_lock);
	tdestroy(tree->root, free_node);
	tree->root = NULL;
	pthread_mutex_unlock(&eu_search_lock);
}

void *eu_tsearch(const void *key, struct eu_search_tree *tree,
		 eu_compar_fn compar)
{
	void *node;

	pthread_mutex_lock(&eu_search_lock);
	node = tsearch(key, &tree->root, compar);
	pthread_mutex_unlock(&eu_search_lock);
	return node;
}

void *eu_tdelete(const void *key, struct eu_search_tree *tree,
		 eu_compar_fn compar)
{
	void *parent;

	pthread_mutex_lock(&eu_search_lock);
	parent = tdelete(key, &tree->root, compar);
	pthread_mutex_unlock(&eu_search_lock);
	return parent;
}

long __isoc23_strtol(const char *nptr, char **endptr, int base);

long __isoc23_strtol(const char *nptr, char **endptr, int base)
{
	return strtol(nptr, endptr, base);
}
