import { z } from "zod";

// Zod 4 compiles fast parsers with `new Function` when it may. Our CSP forbids eval, so the probe
// alone raised a CSP violation (and an audit row) on every page. Jitless parsing is plenty fast
// for forms. Imported first by app/root.tsx, so it runs before any schema parses, on both sides.
z.config({ jitless: true });
