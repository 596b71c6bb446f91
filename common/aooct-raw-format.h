/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the sample formats of raw camera rows (docs/caps.md, "Packed
 * 10/12-bit input"): 8- and 16-bit samples, and the packed GenICam
 * formats Mono12p, Mono12Packed and Mono10p, unpacked where the samples
 * are used (the dcsub cores, the tools).
 *
 * A packed row of N samples is N x bits / 8 bytes with no bits left over:
 * N must be a multiple of the pack unit (2 samples in 3 bytes for 12-bit,
 * 4 in 5 for 10-bit).  The unpack functions below are the one statement of
 * each bit order: the CPU core, the CUDA kernels (they compile as host and
 * device code) and the tools use them; the tests check them against bytes
 * packed by hand. */
#ifndef __AOOCT_RAW_FORMAT_H__
#define __AOOCT_RAW_FORMAT_H__

#include <glib.h>

G_BEGIN_DECLS typedef enum
{
  AOOCT_RAW_GRAY8,              /* 8-bit samples */
  AOOCT_RAW_GRAY16_LE,          /* 16-bit little-endian samples */
  AOOCT_RAW_MONO12P,            /* GenICam PFNC Mono12p: LSB-first bit
                                 * stream, 2 samples in 3 bytes */
  AOOCT_RAW_MONO12PACKED,       /* GigE Vision Mono12Packed: 2 samples in
                                 * 3 bytes, low nibbles in the middle */
  AOOCT_RAW_MONO10P,            /* GenICam PFNC Mono10p: LSB-first bit
                                 * stream, 4 samples in 5 bytes */
  AOOCT_RAW_FLOAT32             /* 32-bit IEEE little-endian floats (spectra
                                 * stored by Python labs, .npy '<f4'); spec
                                 * section 0: converted as they are */
} AooctRawFormat;

#define AOOCT_RAW_N_FORMATS 6

#if defined(__CUDACC__)
#define AOOCT_UNPACK_FN static __host__ __device__ __forceinline__
#else
#define AOOCT_UNPACK_FN static inline
#endif

/* Mono12p, bytes b0 b1 b2: sample 0 is bits 0..11 of the little-endian
 * 24-bit word b0 | b1 << 8 | b2 << 16, sample 1 bits 12..23. */
AOOCT_UNPACK_FN unsigned int
aooct_unpack_mono12p (unsigned int b0, unsigned int b1, unsigned int b2, int k)
{
  return k == 0 ? (b0 | (b1 & 0xfu) << 8) : ((b1 >> 4) | b2 << 4);
}

/* Mono12Packed, bytes b0 b1 b2: b0 is sample 0's bits 11..4, b2 sample
 * 1's bits 11..4; b1 holds sample 0's bits 3..0 in its low nibble and
 * sample 1's in its high nibble. */
AOOCT_UNPACK_FN unsigned int
aooct_unpack_mono12packed (unsigned int b0, unsigned int b1,
    unsigned int b2, int k)
{
  return k == 0 ? (b0 << 4 | (b1 & 0xfu)) : (b2 << 4 | (b1 >> 4));
}

/* Mono10p, bytes b0 .. b4: sample k (0..3) is bits 10k .. 10k+9 of the
 * little-endian 40-bit word b0 | b1 << 8 | ... | b4 << 32. */
AOOCT_UNPACK_FN unsigned int
aooct_unpack_mono10p (const unsigned int b[5], int k)
{
  switch (k) {
    case 0:
      return b[0] | (b[1] & 0x3u) << 8;
    case 1:
      return (b[1] >> 2) | (b[2] & 0xfu) << 6;
    case 2:
      return (b[2] >> 4) | (b[3] & 0x3fu) << 4;
    default:
      return (b[3] >> 6) | b[4] << 2;
  }
}

/* Bits per sample: 8, 16, 12, 12, 10, 32. */
gint aooct_raw_format_bits (AooctRawFormat format);
/* Samples of one pack unit (the width must be a multiple): 1 for 8- and
 * 16-bit samples, 2 for 12-bit, 4 for 10-bit. */
gint aooct_raw_format_unit (AooctRawFormat format);
gboolean aooct_raw_format_is_packed (AooctRawFormat format);
/* FALSE for the formats GStreamer's raw video has (GRAY8, GRAY16_LE): the
 * others travel in caps of aooct's own (packed, float; aooct-raw-caps.h) */
gboolean aooct_raw_format_is_video (AooctRawFormat format);
/* Bytes of a row of @n samples (@n a multiple of the unit). */
gsize aooct_raw_row_bytes (AooctRawFormat format, gint n);
/* "GRAY8", "GRAY16_LE", "mono12p", "mono12packed", "mono10p", "F32LE" */
const gchar *aooct_raw_format_name (AooctRawFormat format);
/* aooctfilesrc's name of @format (its format property): "gray8",
 * "gray16-le", "mono12p", "mono12packed", "mono10p", "float32-le" */
const gchar *aooct_raw_format_nick (AooctRawFormat format);
/* The tools' and files' spellings: gray8, gray16-le (or gray16), mono12p,
 * mono12packed, mono10p, float32-le (or float32, f32le; case-insensitive);
 * FALSE for anything else. */
gboolean aooct_raw_format_from_string (const gchar * str,
    AooctRawFormat * format);
/* @n samples per A-line in @format: FALSE with @error (AOOCT_ERROR_CAPS)
 * saying which widths the format allows. */
gboolean aooct_raw_check_width (AooctRawFormat format, gint n, GError ** error);
/* Unpacks the row of @n samples at @row (any integer format, @n a multiple
 * of the unit) into @out (not for AOOCT_RAW_FLOAT32). */
void aooct_raw_unpack_row (AooctRawFormat format, const guint8 * row, gint n,
    guint16 * out);

/* The row of @n samples at @row (any format) as floats: the integers
 * converted exactly, float32 samples as they are (spec section 1). */
void aooct_raw_row_to_float (AooctRawFormat format, const guint8 * row,
    gint n, gfloat * out);

/* The first non-finite sample of @rows rows of @n float32 little-endian
 * samples @stride bytes apart: TRUE with its *@row, *@col and *@value;
 * FALSE when all are finite. */
gboolean aooct_raw_find_nonfinite (const guint8 * data, gsize stride,
    gint n, gsize rows, gsize * row, gint * col, gfloat * value);

/* The inverse of aooct_raw_unpack_row: @n samples (@n a multiple of the
 * unit, each below 2^bits) packed into a row of @format at @row (float32:
 * the same values as floats).  For writing packed files and frames (the
 * benchmark); the tests pack by hand instead. */
void aooct_raw_pack_row (AooctRawFormat format, const guint16 * in, gint n,
    guint8 * row);

G_END_DECLS
#endif /* __AOOCT_RAW_FORMAT_H__ */
