import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The benchmarks build into their own state folder (scripts/bench-server.mjs), not the shared build/.
  buildDirectory: process.env.SB_BUILD_DIR ?? "build",
} satisfies Config;
