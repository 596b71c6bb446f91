/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: plugin registration.
 *
 * The plugin links FFTW3 (GPL), so the plugin as a whole is distributed
 * under the GPL (version 2 or later); see README.md, "License". */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstaooctdcsub.h"
#include "gstaooctpad.h"
#include "gstaooctfft.h"
#include "gstaooctkmap.h"
#include "gstaooctdisp.h"
#include "gstaooctfullrange.h"
#include "gstaooctcs.h"
#include "gstaooctnorm.h"
#include "gstaooctenface.h"
#include "gstaooctrender.h"
#include "gstaooctdoppler.h"
#include "gstaooctregister.h"
#include "gstaooctorg.h"
#include "gstaooctangio.h"
#include "gstaooctflowenface.h"
#include "gstaooctsrc.h"
#include "gstaooctfilesrc.h"
#include "gstaooctbin.h"
#include "gstaooctsplit.h"
#include "gstaooctmerge.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (aooctdcsub, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctpad, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctfft, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctkmap, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctdisp, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctfullrange, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctcs, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctnorm, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctenface, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctrender, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctdoppler, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctregister, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctorg, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctangio, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctflowenface, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctsrc, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctfilesrc, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctbin, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctsplit, plugin);
  ret |= GST_ELEMENT_REGISTER (aooctmerge, plugin);
  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, aooct,
    "Real-time spectral-domain (AO-)OCT reconstruction, CPU and CUDA",
    plugin_init, PACKAGE_VERSION, "GPL", PACKAGE_NAME, PACKAGE_ORIGIN)
