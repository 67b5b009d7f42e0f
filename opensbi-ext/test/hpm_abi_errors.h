/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The errors each HPM function may return, as the ABI table gives them:
 * bit -err set for each error value err.  Shared by the fuzzer, which
 * checks every call against it, and by the specification check
 * (spec/check-spec), which checks the error tables of
 * spec/ext-hpm.adoc against it.
 */
#ifndef HPM_ABI_ERRORS_H
#define HPM_ABI_ERRORS_H

#include "../include/sbi_hpm_abi.h"

#define HPM_ERRBIT(err)		(1U << -(err))

static inline unsigned int hpm_allowed_errors(unsigned long fid, int xlen)
{
	const unsigned int inv = HPM_ERRBIT(SBI_HPM_ERR_INVALID_PARAM);
	const unsigned int ns = HPM_ERRBIT(SBI_HPM_ERR_NOT_SUPPORTED);
	const unsigned int den = HPM_ERRBIT(SBI_HPM_ERR_DENIED);

	switch (fid) {
	case SBI_EXT_HPM_GET_MEVENT:
	case SBI_EXT_HPM_SET_MEVENT:
	case SBI_EXT_HPM_GET_MEVENTH:
	case SBI_EXT_HPM_SET_MEVENTH:
	case SBI_EXT_HPM_GET_CTRCFG:
	case SBI_EXT_HPM_SET_CTRCFG:
	case SBI_EXT_HPM_GET_MCOUNTER:
	case SBI_EXT_HPM_GET_UCOUNTER:
	case SBI_EXT_HPM_GET_WIDTH:
		return inv | ns;
	case SBI_EXT_HPM_SET_MCOUNTER:
	case SBI_EXT_HPM_SET_UCOUNTER:
		return inv | ns | den;
	case SBI_EXT_HPM_GET_MCOUNTERH:
		return xlen == 32 ? inv | ns : ns;
	case SBI_EXT_HPM_SET_MCOUNTERH:
		return xlen == 32 ? inv | ns | den : ns;
	case SBI_EXT_HPM_SET_MCOUNTEREN:
		return den;
	case SBI_EXT_HPM_GET_MCOUNTINHIBIT:
	case SBI_EXT_HPM_INHIBIT_CLEAR:
		return ns;
	case SBI_EXT_HPM_SET_MCOUNTINHIBIT:
	case SBI_EXT_HPM_INHIBIT_SET:
	case SBI_EXT_HPM_COUNTER_START:
		return ns | den;
	case SBI_EXT_HPM_GET_MCOUNTEREN:
	case SBI_EXT_HPM_GET_SCOUNTEREN:
	case SBI_EXT_HPM_SET_SCOUNTEREN:
	case SBI_EXT_HPM_GET_INFO:
		return 0;
	default:
		return ns;
	}
}

#endif /* HPM_ABI_ERRORS_H */
