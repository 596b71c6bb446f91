/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: error domain shared by the processing cores and the elements. */
#include "aooct-error.h"

/* *INDENT-OFF* */
G_DEFINE_QUARK (aooct-error-quark, aooct_error);
/* *INDENT-ON* */
