import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as lucide from "lucide";
import * as icons from "~/ui/icons";
import { present } from "../../helpers/present";

// The app's icons carry their shapes as the <svg>'s inner markup (app/ui/icons.ts, decision 0280):
// the HTML must be what React wrote when every shape was an element of its own, for every icon.

type Shape = [string, Record<string, string | number | undefined>][];

/** An icon as it was drawn before: one React element per shape. */
function asElements(shape: Shape, props: Record<string, unknown>) {
  return createElement(
    "svg",
    props,
    shape.map(([tag, attrs], i) => createElement(tag, { key: i, ...attrs })),
  );
}

describe("icons as inner markup", () => {
  const names = Object.keys(icons).filter((name) => typeof (icons as Record<string, unknown>)[name] === "function" && name !== "shapeMarkup");

  it("write the same HTML as one element per shape, for every icon, decorative or labelled", () => {
    expect(names.length).toBeGreaterThan(40);
    for (const name of names) {
      const Icon = (icons as unknown as Record<string, (p: object) => unknown>)[name] as never;
      const found = (lucide as unknown as Record<string, Shape>)[name];
      expect(found, name).toBeDefined();
      const shape = present(found, `lucide's ${name}`);
      const decorative = renderToStaticMarkup(createElement(Icon, { className: "h-4 w-4" }));
      expect(decorative, name).toBe(renderToStaticMarkup(asElements(shape, { viewBox: "0 0 24 24", "aria-hidden": true, className: "icon h-4 w-4" })));
      const labelled = renderToStaticMarkup(createElement(Icon, { "aria-label": "Play", role: "img" }));
      expect(labelled, name).toBe(renderToStaticMarkup(asElements(shape, { viewBox: "0 0 24 24", "aria-label": "Play", role: "img", className: "icon" })));
    }
  });

  it("escape what they write", () => {
    expect(icons.shapeMarkup([["path", { d: 'M0 0"/><script>x</script>&' }]] as never)).toBe(
      '<path d="M0 0&quot;/&gt;&lt;script&gt;x&lt;/script&gt;&amp;"></path>',
    );
  });
});
