/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aoocttestgain: the example step aooctgain (gstaooctgain.c) as a plugin
 * of its own, for tests/elements/test-gain.c only (not installed), so
 * that the shipped aooct plugin carries no example.  An element of the
 * aooct plugin needs no such file: its name in gst/elements/meson.build
 * registers it (gst/plugin.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

GST_ELEMENT_REGISTER_DECLARE (aooctgain);

static gboolean
plugin_init (GstPlugin * plugin)
{
  return GST_ELEMENT_REGISTER (aooctgain, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, aoocttestgain,
    "aooct's example step (docs/architecture.md, \"Add a step\"), for its "
    "test only", plugin_init, PACKAGE_VERSION, "GPL", PACKAGE_NAME,
    PACKAGE_ORIGIN)
