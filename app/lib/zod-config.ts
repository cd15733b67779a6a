import { z } from "zod";

// Zod 4 compiles fast parsers with `new Function` when it may. Our CSP forbids eval, so the probe
// alone raised a CSP violation (and an audit row) on every page. Jitless parsing is plenty fast
// for forms. Imported by app/entry.server.tsx (the server) and app/lib/forms.ts (every schema the
// browser loads), so it runs before any schema parses; root.tsx no longer imports zod on every page.
z.config({ jitless: true });
