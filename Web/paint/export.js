// "Export PNG": the drawing's SVG (what "Export SVG" saves: the window's
// canvas grown to the whole drawing, see SVGWriter.swift) rasterized at the
// screen's pixel ratio. Not the cached layer on screen: that holds only what
// the window shows, and the drawing goes on past it once panned.

/** The largest side and area a canvas is asked for (browsers refuse bigger ones, or run out of memory). */
const MAX_SIDE = 8192;
const MAX_PIXELS = 32 * 1024 * 1024;

/** The PNG of `svg` (a Blob), at `scale` device pixels a point at most. */
export async function pngOfSVG(svg, scale = window.devicePixelRatio || 1) {
  const header = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg.slice(0, 400));
  if (!header) throw new Error('the SVG has no size');
  const [width, height] = [Number(header[1]), Number(header[2])];
  const fit = Math.min(scale, MAX_SIDE / width, MAX_SIDE / height, Math.sqrt(MAX_PIXELS / (width * height)));
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * fit));
    canvas.height = Math.max(1, Math.round(height * fit));
    canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the picture is too large'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
