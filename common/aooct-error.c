/* aooct: error domain shared by the processing cores and the elements. */
#include "aooct-error.h"

G_DEFINE_QUARK (aooct-error-quark, aooct_error);
