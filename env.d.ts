declare module "*.wasm?module" {
  const module: WebAssembly.Module;
  export default module;
}

// LAME's wasm (wasm-media-encoders), copied beside the demo seed's Worker by scripts/setup-local.mjs
// and loaded by workerd as a compiled module (scripts/seed-worker.ts).
declare module "*/lame-mp3.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
