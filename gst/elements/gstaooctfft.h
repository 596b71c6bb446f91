/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctfft, spectral window and FFT to depth. */
#ifndef __GST_AOOCT_FFT_H__
#define __GST_AOOCT_FFT_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_FFT (gst_aooct_fft_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctFft, gst_aooct_fft, GST, AOOCT_FFT,
    GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctfft);

G_END_DECLS

#endif /* __GST_AOOCT_FFT_H__ */
