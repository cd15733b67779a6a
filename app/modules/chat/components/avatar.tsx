export function Avatar({ name, url, small = false }: { name: string; url: string | null; small?: boolean }) {
  const size = small ? "h-6 w-6 text-xs" : "h-8 w-8 text-sm";
  return url ? (
    <img src={url} alt="" className={`${size} shrink-0 rounded-full object-cover`} />
  ) : (
    <span aria-hidden="true" className={`${size} flex shrink-0 items-center justify-center rounded-full bg-slate-200 font-semibold text-slate-700`}>
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
