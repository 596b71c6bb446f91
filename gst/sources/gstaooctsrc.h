/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctsrc, a synthetic spectral-domain OCT camera. */
#ifndef __GST_AOOCT_SRC_H__
#define __GST_AOOCT_SRC_H__

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_SRC (gst_aooct_src_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctSrc, gst_aooct_src, GST, AOOCT_SRC, GstPushSrc);

GST_ELEMENT_REGISTER_DECLARE (aooctsrc);

G_END_DECLS

#endif /* __GST_AOOCT_SRC_H__ */
