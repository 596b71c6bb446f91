/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctflowenface, the en-face image of a volume of flow images. */
#ifndef __GST_AOOCT_FLOW_ENFACE_H__
#define __GST_AOOCT_FLOW_ENFACE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_FLOW_ENFACE (gst_aooct_flow_enface_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctFlowEnface, gst_aooct_flow_enface, GST,
    AOOCT_FLOW_ENFACE, GstElement);

GST_ELEMENT_REGISTER_DECLARE (aooctflowenface);

G_END_DECLS

#endif /* __GST_AOOCT_FLOW_ENFACE_H__ */
