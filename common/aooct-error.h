/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: error domain shared by the processing cores and the elements.
 *
 * The cores (common/, cpu/, cuda/) know nothing of GStreamer; they report
 * problems as GError in this domain and the element turns the code into the
 * matching GST_ELEMENT_ERROR category (see gst_aooct_filter_post_error()). */
#ifndef __AOOCT_ERROR_H__
#define __AOOCT_ERROR_H__

#include <glib.h>

G_BEGIN_DECLS

#define AOOCT_ERROR (aooct_error_quark ())

typedef enum
{
  AOOCT_ERROR_CAPS,             /* geometry / caps do not fit this element */
  AOOCT_ERROR_FILE,             /* a calibration file cannot be used */
  AOOCT_ERROR_SETTINGS,         /* a property value is impossible */
  AOOCT_ERROR_DATA,             /* a buffer does not match its caps */
  AOOCT_ERROR_RESOURCE,         /* out of memory, no device, ... */
  AOOCT_ERROR_FAILED            /* a library call failed (FFTW, CUDA, cuFFT) */
} AooctErrorCode;

GQuark aooct_error_quark (void);

G_END_DECLS

#endif /* __AOOCT_ERROR_H__ */
