/* aooct: error domain shared by the processing cores and the elements. */
#include "aooct-error.h"

/* *INDENT-OFF* */
G_DEFINE_QUARK (aooct-error-quark, aooct_error);
/* *INDENT-ON* */
