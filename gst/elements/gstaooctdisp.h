/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctdisp, dispersion compensation. */
#ifndef __GST_AOOCT_DISP_H__
#define __GST_AOOCT_DISP_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_DISP (gst_aooct_disp_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctDisp, gst_aooct_disp, GST, AOOCT_DISP,
    GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctdisp);

G_END_DECLS

#endif /* __GST_AOOCT_DISP_H__ */
