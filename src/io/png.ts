/**
 * SVG to PNG, for `report --figures`: resvg (a Rust SVG renderer shipped as a prebuilt
 * Node addon, `@resvg/resvg-js`), loaded only when a figure is written. Text is set in the
 * system's fonts (DejaVu Sans first, as the figures ask).
 */
import { createRequire } from "node:module";
import { err, ok, problem, type Result } from "../messages/index.js";

type ResvgModule = typeof import("@resvg/resvg-js");

/** The PNG of an SVG at `scale` times its size (2: sharp in print at the figure's width). */
export function svgToPng(svg: string, scale = 2): Result<Uint8Array> {
  let Resvg: ResvgModule["Resvg"];
  try {
    // required, not imported: the bin's chunks run as scripts, where import() has no loader
    ({ Resvg } = createRequire(import.meta.url)("@resvg/resvg-js") as ResvgModule);
  } catch (e) {
    return err(
      problem(
        "png-unavailable",
        `cannot load the PNG renderer @resvg/resvg-js (${(e as Error).message.split("\n")[0]}); the SVG files are written`,
      ),
    );
  }
  try {
    const image = new Resvg(svg, {
      fitTo: { mode: "zoom", value: scale },
      font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans" },
    }).render();
    return ok(new Uint8Array(image.asPng()));
  } catch (e) {
    return err(problem("png-failed", `cannot render the figure as PNG: ${(e as Error).message.split("\n")[0]}`));
  }
}
