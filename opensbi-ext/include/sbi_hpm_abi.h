/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Binary interface of the HPM SBI extension (EID 0x0848504d, "HPM").
 *
 * This header is the single source of these numbers: the M-mode core and
 * the OpenSBI glue include it, so does the S-mode conformance test, and
 * the Linux patch series carries the same values (a test compares them).  It has no dependency on any C library so
 * that every one of those environments can include it.
 *
 * The authoritative description of every function is
 * shared/design/hpm-abi.md; opensbi-ext/README.md repeats it for users.
 */
#ifndef SBI_HPM_ABI_H
#define SBI_HPM_ABI_H

/* Extension ID: "HPM" in ASCII, in the SBI experimental range. */
#define SBI_EXT_HPM			0x0848504d

/* Function IDs (a6). */
#define SBI_EXT_HPM_GET_MEVENT		0
#define SBI_EXT_HPM_SET_MEVENT		1
#define SBI_EXT_HPM_GET_MCOUNTER	2
#define SBI_EXT_HPM_SET_MCOUNTER	3
#define SBI_EXT_HPM_GET_UCOUNTER	4
#define SBI_EXT_HPM_SET_UCOUNTER	5
#define SBI_EXT_HPM_GET_MCOUNTEREN	6
#define SBI_EXT_HPM_SET_MCOUNTEREN	7
#define SBI_EXT_HPM_GET_SCOUNTEREN	8
#define SBI_EXT_HPM_SET_SCOUNTEREN	9
#define SBI_EXT_HPM_GET_MCOUNTINHIBIT	10
#define SBI_EXT_HPM_SET_MCOUNTINHIBIT	11
#define SBI_EXT_HPM_GET_MCOUNTERH	12
#define SBI_EXT_HPM_SET_MCOUNTERH	13
#define SBI_EXT_HPM_GET_INFO		14
#define SBI_EXT_HPM_GET_WIDTH		15
#define SBI_EXT_HPM_INHIBIT_SET		16
#define SBI_EXT_HPM_INHIBIT_CLEAR	17
#define SBI_EXT_HPM_COUNTER_START	18
#define SBI_EXT_HPM_GET_MEVENTH		19
#define SBI_EXT_HPM_SET_MEVENTH		20
#define SBI_EXT_HPM_GET_CTRCFG		21
#define SBI_EXT_HPM_SET_CTRCFG		22
/* One past the last function ID; any FID from here on is NOT_SUPPORTED. */
#define SBI_EXT_HPM_FID_COUNT		23

/* Error values returned in a0 (the SBI specification's values). */
#define SBI_HPM_SUCCESS			0
#define SBI_HPM_ERR_FAILED		-1
#define SBI_HPM_ERR_NOT_SUPPORTED	-2
#define SBI_HPM_ERR_INVALID_PARAM	-3
#define SBI_HPM_ERR_DENIED		-4

/* Counter indices: 0 cycle, 1 time, 2 instret, 3..31 hpmcounter3..31. */
#define SBI_HPM_IDX_CYCLE		0
#define SBI_HPM_IDX_TIME		1
#define SBI_HPM_IDX_INSTRET		2
#define SBI_HPM_IDX_HPM_FIRST		3
#define SBI_HPM_IDX_LAST		31
#define SBI_HPM_NUM_COUNTERS		32

/* Bit 1 (TM) of mcounteren and mcountinhibit: never cleared / never set. */
#define SBI_HPM_TIME_BIT		(1U << SBI_HPM_IDX_TIME)

#endif /* SBI_HPM_ABI_H */
