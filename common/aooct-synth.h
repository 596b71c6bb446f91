/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: synthetic spectral-domain OCT camera (the model behind aooctsrc).
 *
 * GStreamer-free: given AooctSynthParams, aooct_synth_fill() writes one raw
 * B-scan of M A-lines x N uint16 samples (12 bit, 0..4095), exactly what a
 * line-scan spectrometer camera in area mode delivers.  Tests use the
 * helpers below to know what the reconstruction must show.
 *
 * The model
 * ---------
 * Spectrometer: camera pixel p (0..N-1) sees the wavelength
 *   lambda(p) = c0 + c1 p + c2 p^2 + c3 p^3   (nm, wavelength-coeffs)
 * i.e. the wavenumber k(p) = 2 pi / lambda(p) is not linear in p.  The
 * polynomial must be finite, positive and strictly monotonic on [0, N-1]
 * (the same rule and string format as aooctkmap's wavelength-coeffs).
 * Below, K0 = k(0), K1 = k(N-1); k is in rad/um and depths in um.
 *
 * Source: Gaussian power spectrum in k, centre kc = 2 pi / center-wavelength,
 * FWHM dk = 2 pi bandwidth / center-wavelength^2, S(k) = exp (-4 ln2
 * ((k - kc) / dk)^2).  The axial resolution (FWHM of the depth PSF
 * amplitude |X|, single-pass optical path) is 2 ln2 / pi * lambda_c^2 /
 * bandwidth (6.2 um for the defaults); the intensity |X|^2 is sqrt(2)
 * narrower, a little wider again where the camera truncates the spectrum.
 *
 * Interferometer: the reference arm gives reference-level * S(k) counts at
 * the pixel; the sample field relative to the reference field is
 *   g(k) = e^{j phi(k)} sum_n r_n e^{j 2 k z_n}
 * for reflectors of complex amplitude r_n (|r_n|^2 = power relative to the
 * reference) at single-pass optical path difference z_n, so the camera sees
 *   I(k) = dark + reference-level * S(k) * |1 + g(k)|^2 + noise,
 * which holds the DC spectrum, the cross-correlation fringes
 * 2 Re g(k) and the (weak) sample autocorrelation |g|^2.  A reflector at z
 * appears after aooctkmap and the FFT at depth bin
 *   m = z |K1 - K0| P1 / (pi (N - 1))   (aooct_synth_depth_bin()).
 *
 * Dispersion: phi(k) = s (a2 u(k)^2 + a3 u(k)^3) with
 * u(k) = 2 (k - K0) / (K1 - K0) - 1 (the u of aooctdisp, spec section 5),
 * a2/a3 = dispersion-a2/-a3 and s = +1 when lambda increases along the
 * pixels, -1 when it decreases.  Derivation (why aooctdisp a2=a2 a3=a3
 * cancels it): after aooctkmap sample i holds k_i = K0 + (i - j0) dk_s with
 * dk_s = (K1 - K0) / (j1 - j0), so u(k_i) is exactly aooctdisp's u_i.  The
 * real fringe cos (2 k z + phi) = (e^{+j(2kz+phi)} + e^{-j(2kz+phi)}) / 2 has
 * the phase +-2 z dk_s i along i; the forward FFT puts e^{+2 pi j m i / L} at
 * bin m >= 0, so the displayed half (bins 0..P1/2) receives the component
 * whose phase increases with i: e^{+j(2kz+phi)} when dk_s > 0 (lambda
 * decreasing, s = -1) and e^{-j(2kz+phi)} when dk_s < 0 (lambda increasing,
 * s = +1).  That component carries the phase -s phi(k_i) = -(a2 u_i^2 +
 * a3 u_i^3), which aooctdisp's w_i = e^{j (a2 u_i^2 + a3 u_i^3)} removes
 * exactly.  For the same optics (the same physical phi(k)) a camera with
 * the opposite direction thus needs the opposite a2 and the same a3, as the
 * spec says: with u -> -u, s -> -s, a2 -> -a2 keeps phi, a3 stays.
 *
 * Phantoms:
 * - mirror: one reflector of power ratio reflectivity at mirror-depth um,
 *   tilted so that its path difference changes linearly by mirror-tilt um
 *   across the B-scan (centred on mirror-depth): a perpendicular mirror
 *   gives the same fringe in every A-line and the B-scan mean DC subtraction
 *   would remove it (spec, Notes).  Evaluated exactly per pixel.
 * - retina: layers NFL, GCL, IPL, INL, OPL, ONL, ELM, IS, IS/OS, OS, COST,
 *   RPE, choroid with relative reflectivities from the AO-OCT literature;
 *   each layer is filled with sub-resolution scatterers on a lattice of
 *   about a quarter of the axial resolution, each of random complex
 *   amplitude (circular Gaussian, so the image shows fully developed
 *   speckle), total power reflectivity relative to the reference at the
 *   volume centre; photoreceptor layers are modulated per cone (3 A-lines).
 *   The retina is curved across A-lines (x) and B-scans (y), and has a
 *   foveal pit at the volume centre that thins the inner layers: consecutive
 *   B-scans of a volume of bscans-per-volume change slowly; B-scan b of the
 *   stream is position b mod bscans-per-volume, and the same position gives
 *   the same tissue (only the noise differs).  For speed the scatterer sum
 *   sum_n r_n e^{j 2 k z_n} is computed by one FFT per A-line on a uniform
 *   k grid that over-samples its highest depth frequency >= 12 times, and
 *   read at each pixel's exact k by 4-point Lagrange interpolation (relative
 *   error < 2e-3); the carrier, dispersion and spectrum are applied per
 *   pixel exactly.
 *
 * Full range (spec section 9): with carrier beta (rad per A-line) the
 * sample field of A-line m is g(k) e^{j beta m} (the beam hits the scanner
 * off its pivot, Zhang & Kang 2010: about 1.5 rad), so a reflector's
 * fringe e^{j 2 k z} and its mirror e^{-j 2 k z} move to opposite lateral
 * frequencies, which aooctfullrange separates.  depth-offset shifts every
 * reflector (both phantoms) by that many um of path: negative values move
 * the sample across zero delay; mirror-depth may be negative too.  The
 * separation needs the sample to change slowly from A-line to A-line
 * compared with the carrier (Zhang & Kang oversample laterally: the beam
 * is wider than the A-line spacing): speckle-width sigma > 0 makes the
 * retina's scatterer amplitudes of A-line m the Gaussian-weighted sum
 * (weights exp (-k^2 / (2 sigma^2)) over |k| <= ceil (3 sigma), squares
 * summing to 1, so still fully developed speckle of the same mean power)
 * of the independent draws of A-lines m + k; its lateral spectrum then
 * falls as exp (-(q sigma)^2 / 2), 48 dB down at q = pi/2 for sigma = 3.
 *
 * Flow (spec section 12): vessel-count vessels cross the B-scan as
 * cylinders running across B-scans (along y), all at vessel-depth um of
 * single-pass optical path (the retina's follow its curvature across
 * B-scans: + 50 y^2 um), vessel-diameter um across in depth and
 * vessel-diameter / aline-spacing A-lines wide; vessel j is centred at the
 * fraction (vessel-position + j / vessel-count) mod 1 of the B-scan width.
 * They replace the tissue they occupy with blood: scatterers of relative
 * backscatter VESSEL_BACKSCATTER per um (about the IPL's) on the same
 * lattice, which move axially at vessel-velocity mm/s (vessel j at
 * (-1)^j vessel-velocity: neighbours flow in opposite directions, artery
 * and vein).  A-line m of frame f is taken at t = (f M + m) / line-rate
 * (no flyback), and by then every blood scatterer has moved by
 *   delta(t) = n v t   (n = refractive-index: optical path per length)
 * so its fringe e^{j 2 k z} gains e^{j 2 k delta}: from one A-line to the
 * next the phase of each k grows by 2 k n v / line-rate, and the Kasai
 * phase of the reconstruction by
 *   dphi = 4 pi n v T / lambda0 per A-line,   T = 1 / line-rate,
 * lambda0 = 2 pi / <k>, <k> the mean of k weighted by S(k) over the camera's
 * k range (aooct_synth_flow_wavelength(); 840.0 nm for the defaults); its
 * sign on screen is the opposite of the velocity's when lambda increases
 * along the pixels (the displayed half holds e^{-j 2 k z}, see Dispersion).
 * Blood scatterers are independent of the tissue's and keyed by their own
 * index along the flow, so they keep their amplitude while they move (the
 * phase is coherent from A-line to A-line) and enter and leave the
 * vessel's cross-section at its boundary; lateral correlation is that of
 * the tissue (speckle-width: Doppler between neighbouring A-lines needs
 * it, about 3).  From one B-scan to the next a fraction
 * vessel-decorrelation of the blood's scattering power is drawn anew
 * (amplitude sqrt(1 - d) b + sqrt(d) e_f: red cells tumble and pass
 * through the beam across it), so repeated B-scans of a vessel decorrelate
 * (complex correlation 1 - d, less as the axial shift n v M T moves the
 * speckle on), while static tissue stays the same but for the noise.
 * repeats: each position of the retina is acquired that many times in a
 * row (B-scan b shows position (b / repeats) mod bscans-per-volume), as a
 * scanner for angiography does.  With vessel-count 0 and repeats 1 the
 * output is that of the phantoms without flow.
 *
 * Photoreceptors (optoretinography, spec section 13): IS/OS, COST and RPE
 * as thin layers of a few point scatterers per A-line, with bulk axial
 * motion, curvature and a set stimulus response of the COST's path
 * against the IS/OS's; aooct-synth-org.h has the model.
 *
 * Noise: Gaussian, variance noise^2 (0.2 + 0.8 I / reference-level) where I
 * is the noiseless signal above dark: a read-noise floor plus a shot-like
 * part proportional to the signal; noise is the RMS at the reference peak.
 * The result is rounded and clipped to 0..4095 (12-bit camera).
 *
 * Randomness: every A-line has its own random stream derived from the seed,
 * the B-scan number and the A-line, so the output depends only on the
 * parameters, the seed and the frame number, not on the thread count. */
#ifndef __AOOCT_SYNTH_H__
#define __AOOCT_SYNTH_H__

#include <glib.h>
#include "aooct-calib.h"
#include "aooct-synth-org.h"

G_BEGIN_DECLS
/* Defaults; pipelines, tests and documentation use these values.
 * The calibration is a grating spectrometer of 832 pixels spanning
 * 785.0 .. 894.633 nm (about linear in lambda, hence non-linear in k),
 * for an 840 nm / 50 nm SLD. */
#define AOOCT_SYNTH_DEFAULT_SAMPLES            832
#define AOOCT_SYNTH_DEFAULT_ALINES             240
#define AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS  "785,0.125,1e-05,-2e-09"
#define AOOCT_SYNTH_DEFAULT_CENTER_WAVELENGTH  840.0
#define AOOCT_SYNTH_DEFAULT_BANDWIDTH          50.0
/* what aooctdisp needs (a2=, a3=) to cancel the default dispersion */
#define AOOCT_SYNTH_DEFAULT_DISPERSION_A2      8.0
#define AOOCT_SYNTH_DEFAULT_DISPERSION_A3      (-2.0)
#define AOOCT_SYNTH_DEFAULT_REFERENCE_LEVEL    2500.0
#define AOOCT_SYNTH_DEFAULT_REFLECTIVITY       1e-3
#define AOOCT_SYNTH_DEFAULT_NOISE              6.0
#define AOOCT_SYNTH_DEFAULT_MIRROR_DEPTH       250.0
#define AOOCT_SYNTH_DEFAULT_MIRROR_TILT        2.0
#define AOOCT_SYNTH_DEFAULT_BSCANS_PER_VOLUME  100
#define AOOCT_SYNTH_DEFAULT_FPS_N              100
#define AOOCT_SYNTH_DEFAULT_FPS_D              1
/* flow (vessels) and repeated B-scans */
#define AOOCT_SYNTH_DEFAULT_VESSEL_VELOCITY    2.0      /* mm/s */
#define AOOCT_SYNTH_DEFAULT_VESSEL_DEPTH       220.0    /* um: the GCL/IPL */
#define AOOCT_SYNTH_DEFAULT_VESSEL_DIAMETER    40.0     /* um */
#define AOOCT_SYNTH_DEFAULT_VESSEL_POSITION    0.25     /* of the width */
#define AOOCT_SYNTH_DEFAULT_VESSEL_DECORRELATION 1.0
#define AOOCT_SYNTH_DEFAULT_ALINE_SPACING      1.0      /* um */
#define AOOCT_SYNTH_DEFAULT_REFRACTIVE_INDEX   1.38
/* the A-line rate of the default frame rate: 24000 A-lines/s */
#define AOOCT_SYNTH_DEFAULT_LINE_RATE \
  (AOOCT_SYNTH_DEFAULT_FPS_N * AOOCT_SYNTH_DEFAULT_ALINES / \
      AOOCT_SYNTH_DEFAULT_FPS_D)
#define AOOCT_SYNTH_MAX_VESSELS                16
#define AOOCT_SYNTH_MAX_REPEATS                1024
/* camera black level (counts) and full scale */
#define AOOCT_SYNTH_DARK_LEVEL                 64.0
#define AOOCT_SYNTH_MAX_VALUE                  4095
/* the most samples per A-line the model supports */
#define AOOCT_SYNTH_MAX_SAMPLES                16384
    typedef enum
{
  AOOCT_SYNTH_PHANTOM_MIRROR,
  AOOCT_SYNTH_PHANTOM_RETINA,
  AOOCT_SYNTH_PHANTOM_PHOTORECEPTORS    /* aooct-synth-org.h */
} AooctSynthPhantom;

typedef struct
{
  gint samples;                 /* N */
  gint alines;                  /* M */
  gdouble coeffs[AOOCT_CALIB_MAX_COEFFS];       /* lambda(p) in nm: parse and
                                                 * check with aooct_calib_parse_coeffs() and
                                                 * aooct_calib_check_poly() */
  gint n_coeffs;                /* 1..4 */
  gdouble center_wavelength;    /* nm */
  gdouble bandwidth;            /* nm, FWHM */
  gdouble reference_level;      /* counts at the spectrum peak */
  gdouble reflectivity;         /* power ratio sample / reference */
  gdouble noise;                /* counts RMS at the reference peak */
  gdouble dispersion_a2;        /* rad, as aooctdisp a2 cancels it */
  gdouble dispersion_a3;        /* rad, as aooctdisp a3 cancels it */
  AooctSynthPhantom phantom;
  gdouble mirror_depth;         /* um, single-pass optical path */
  gdouble mirror_tilt;          /* um of path change across the B-scan */
  gint bscans_per_volume;
  guint32 seed;
  /* complex full range (spec section 9) */
  gdouble carrier;              /* rad per A-line: the sample term of A-line
                                 * m carries e^{j carrier m} */
  gdouble depth_offset;         /* um added to every reflector's path
                                 * difference (negative: across zero
                                 * delay) */
  gdouble speckle_width;        /* retina: lateral correlation of the
                                 * speckle, Gaussian sigma in A-lines
                                 * (0: independent A-lines) */
  /* flow (spec section 12) */
  gint repeats;                 /* each position acquired N times, >= 1 */
  gint vessel_count;            /* 0: no vessel */
  gdouble vessel_velocity;      /* mm/s, axial, > 0: away from the probe */
  gdouble vessel_depth;         /* um of single-pass optical path */
  gdouble vessel_diameter;      /* um */
  gdouble vessel_position;      /* vessel 0's centre, fraction 0..1 of the
                                 * B-scan width */
  gdouble vessel_decorrelation; /* 0..1: blood power re-drawn per B-scan */
  gdouble aline_spacing;        /* um between A-lines (vessel width) */
  gdouble line_rate;            /* A-lines per second */
  gdouble refractive_index;     /* of the blood: optical path per length */
  /* eye motion (spec 13, aooctregister; aooct-synth.c): peak
   * axial shift of the tissue in um of single-pass path and peak lateral
   * shift in A-lines; 0 = none */
  gdouble motion_axial;
  gdouble motion_lateral;
  /* phantom=photoreceptors (optoretinography): aooct-synth-org.h */
  AooctSynthOrg org;
} AooctSynthParams;

typedef struct _AooctSynth AooctSynth;

/* Fills @p with the defaults above (seed 0). */
void aooct_synth_params_init (AooctSynthParams * p);

/* Checks every parameter (finite, in range, consistent); the error message
 * names the aooctsrc property at fault. */
gboolean aooct_synth_params_validate (const AooctSynthParams * p,
    GError ** error);

/* Depth bin (of an FFT of length P2 after aooctpad size=@p1, any factor,
 * and aooctkmap) where a reflector at single-pass optical path difference
 * @z_um appears: z |K1 - K0| P1 / (pi (N - 1)).  Without aooctpad use
 * @p1 = N. */
gdouble aooct_synth_depth_bin (const AooctSynthParams * p, gdouble z_um,
    gint p1);

/* Axial resolution (FWHM of the depth PSF amplitude |X| in um of
 * single-pass optical path) of the untruncated source spectrum. */
gdouble aooct_synth_axial_resolution (const AooctSynthParams * p);

/* lambda0 of the phase a moving scatterer gives (spec section 12), in nm:
 * 2 pi / <k>, <k> the mean wavenumber weighted by the source spectrum S(k)
 * over the camera's k range (uniform in k, as after aooctkmap). */
gdouble aooct_synth_flow_wavelength (const AooctSynthParams * p);

/* Axial velocity of vessel @j in mm/s ((-1)^j vessel-velocity). */
gdouble aooct_synth_vessel_velocity (const AooctSynthParams * p, gint j);

/* Phase per A-line of vessel @j, 4 pi n v / (lambda0 line-rate), in rad,
 * with the sign of the velocity (on screen: see the header comment). */
gdouble aooct_synth_vessel_phase (const AooctSynthParams * p, gint j);

/* Where vessel @j crosses B-scan @frame: centre A-line (fractional), centre
 * depth in um (before depth-offset), lateral radius in A-lines and axial
 * radius in um.  Pixels with ((a - cx) / rx)^2 + ((z - cz) / rz)^2 <= 1
 * are blood. */
void aooct_synth_vessel_geometry (const AooctSynthParams * p, gint j,
    guint64 frame, gdouble * cx, gdouble * cz, gdouble * rx, gdouble * rz);

/* Writes the N pixel wavelengths (nm, one per line, C locale, round-trip
 * precision, a '#' header) to @path: a file for aooctkmap wavelength-file=.
 * Errors (AOOCT_ERROR_FILE) name the file. */
gboolean aooct_synth_write_calibration (const AooctSynthParams * p,
    const gchar * path, GError ** error);

/* Builds the tables of a validated parameter set.  Creates FFTW plans:
 * call it (and aooct_synth_free()) with the FFTW planner lock held
 * (aooct_fftw_lock() in cpu/aooct-fftw.h). */
AooctSynth *aooct_synth_new (const AooctSynthParams * p, GError ** error);
void aooct_synth_free (AooctSynth * s);

/* Writes B-scan number @frame (0, 1, ... of the stream): M rows of N
 * samples, row m at @out + m * @stride_samples. */
void aooct_synth_fill (AooctSynth * s, guint64 frame, guint16 * out,
    gsize stride_samples);

/* ---- eye motion (aooct-synth.c) ----
 *
 * With motion-axial A (um) and motion-lateral L (A-lines) the whole
 * retina of B-scan @frame is moved, rigidly, by
 *   dz(f) = A w(f, 1),  dx(f) = L w(f, 2),
 *   w(f, a) = 0.7 sin (2 pi f / 50 + phi_a1) + 0.3 sin (2 pi f / 7.3 +
 *       phi_a2)
 * (a slow drift and a tremor; |w| <= 1; the phases phi from the seed):
 * every scatterer lies dz deeper (its fringe e^{j 2 k z} gains e^{j 2 k
 * dz}, exact for any dz) and dx A-lines further along the scan (A-line m
 * sees the tissue's columns c with the beam's Gaussian weight exp (-(m -
 * dx - c)^2 / (2 speckle-width^2)), exact for any dx; each column keeps
 * its own scatterers and layer depths), so the same speckle moves with
 * the tissue.  A feature at (z, m) of B-scan f0 is at (z + dz_bins, m +
 * dx) of B-scan f with dz_bins = aooct_synth_depth_bin (dz(f) - dz(f0))
 * and dx = dx(f) - dx(f0): aooctregister's estimate against reference
 * f0.  Lateral motion needs speckle-width > 0 (the beam's width) and no
 * vessels; both need the retina phantom. */
void aooct_synth_motion (const AooctSynthParams * p, guint64 frame,
    gdouble * dz_um, gdouble * dx_alines);

G_END_DECLS
#endif /* __AOOCT_SYNTH_H__ */
