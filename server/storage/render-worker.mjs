// Runs in an image-render process (see render-pool.ts): one render at a time,
// in a child process of its own so that a render can be stopped for real (the
// process is killed at its deadline or when the client leaves) and its memory
// goes back to the system with it. libvips here decodes only the five formats
// we transform; SVG, PDF, TIFF and the rest are blocked before sharp sees them.
import sharp from 'sharp';

sharp.cache(false);
// One libvips thread: the pool runs as many processes as renders at once.
sharp.concurrency(1);
sharp.block({ operation: ['VipsForeignLoad'] });
sharp.unblock({
  operation: [
    'VipsForeignLoadPngBuffer',
    'VipsForeignLoadJpegBuffer',
    'VipsForeignLoadWebpBuffer',
    'VipsForeignLoadGifBuffer',
    'VipsForeignLoadNsgifBuffer',
    'VipsForeignLoadHeifBuffer',
  ],
});

/** AVIF's encoder is slow at its default effort (about 30 s for 2,500 × 2,500 px on one core). */
const AVIF_EFFORT = 0;

class Refusal extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

/**
 * `job`: { input: Uint8Array, format: png|jpeg|webp|gif|heif (what the bytes must be),
 * maxPixels, maxSide, width?, height?, fit: cover|inside|fill, quality, output?: avif|webp,
 * timeoutSeconds }
 */
async function render(job) {
  const input = Buffer.from(job.input.buffer, job.input.byteOffset, job.input.byteLength);
  const options = { failOn: 'error', limitInputPixels: job.maxPixels, pages: 1 };
  let metadata;
  try {
    metadata = await sharp(input, options).metadata();
  } catch (error) {
    throw new Refusal(/pixel limit/i.test(error.message) ? 'pixels' : 'format', error.message);
  }
  if (metadata.format !== job.format || (job.format === 'heif' && metadata.compression !== 'av1')) {
    throw new Refusal('format', `the bytes are ${metadata.format}, not ${job.format}`);
  }
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if ((metadata.width ?? 0) * height > job.maxPixels) {
    throw new Refusal('pixels', `${metadata.width} x ${height} pixels`);
  }

  let pipeline = sharp(input, options).timeout({ seconds: job.timeoutSeconds }).rotate();
  if (job.width && job.height) {
    pipeline = pipeline.resize({
      width: job.width,
      height: job.height,
      fit: job.fit,
      withoutEnlargement: true,
    });
  } else {
    // One side given (the other follows the aspect ratio) or none: either way
    // neither side of the result exceeds maxSide.
    pipeline = pipeline.resize({
      width: job.width ?? job.maxSide,
      height: job.height ?? job.maxSide,
      fit: 'inside',
      withoutEnlargement: true,
    });
  }
  const quality = job.quality;
  if (job.output === 'avif') pipeline = pipeline.avif({ quality, effort: AVIF_EFFORT });
  else if (job.output === 'webp') pipeline = pipeline.webp({ quality });
  else {
    // The source's own format.
    pipeline = pipeline
      .jpeg({ quality, force: false })
      .png({ quality, force: false })
      .webp({ quality, force: false })
      .avif({ quality, effort: AVIF_EFFORT, force: false })
      .gif({ force: false });
  }
  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { data, format: info.format, width: info.width, height: info.height };
  } catch (error) {
    if (/pixel limit/i.test(error.message)) throw new Refusal('pixels', error.message);
    throw new Refusal('invalid', error.message);
  }
}

process.on('message', (message) => {
  render(message.job).then(
    (result) => process.send({ id: message.id, ok: true, ...result }),
    (error) =>
      process.send({
        id: message.id,
        ok: false,
        reason: error instanceof Refusal ? error.reason : 'invalid',
        message: String(error?.message ?? error),
      }),
  );
});
// The parent going away takes this process with it.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
