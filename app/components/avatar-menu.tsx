import { LogOut, Settings, User } from "~/ui/icons";
import { useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { Popover, PopoverContent, PopoverTrigger } from "~/ui/popover";
import type { ShellUser } from "./shell";
import { useResetOnNavigate } from "./use-reset-on-navigate";

// The header's avatar and its account menu (shell.tsx).

function initialsOf(name: string) {
  return name
    .split(/\s+/)
    .map((p) => p[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

/**
 * Whether the avatar picture is still on its way: true from the first render (the server's HTML
 * too) until the image has loaded or failed; a new picture (after a profile change) starts again.
 * An image that finished before hydration is caught by `complete` on mount.
 */
function useImageLoading(src: string | null) {
  const [settled, setSettled] = useState<string | null>(null);
  const ref = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    const img = ref.current;
    if (src && img?.complete) (img.naturalWidth > 0 ? setSettled : setFailed)(src);
  }, [src]);
  return {
    ref,
    loading: src !== null && settled !== src && failed !== src,
    failed: src !== null && failed === src,
    onLoad: () => setSettled(src),
    onError: () => setFailed(src),
  };
}

/**
 * The header avatar (spec section 2): a skeleton circle until the picture arrives. The skeleton is
 * behind the image, so before hydration the picture covers it as soon as it paints; afterwards the
 * image's onLoad removes it. Initials when there is no picture or it cannot load.
 */
function Avatar({ user, image, size = 32 }: { user: ShellUser; image: ReturnType<typeof useImageLoading>; size?: number }) {
  if (!user.avatarUrl || image.failed) {
    return (
      <span
        aria-hidden="true"
        className="inline-flex items-center justify-center rounded-full bg-slate-800 text-xs font-bold text-white"
        style={{ width: size, height: size }}
      >
        {initialsOf(user.displayName) || "?"}
      </span>
    );
  }
  return (
    <span className="relative inline-block align-middle" style={{ width: size, height: size }}>
      {image.loading ? (
        <span
          aria-hidden="true"
          data-testid="avatar-skeleton"
          className="absolute inset-0 animate-pulse rounded-full bg-slate-300 motion-reduce:animate-none"
        />
      ) : null}
      <img
        ref={image.ref}
        src={user.avatarUrl}
        alt=""
        width={size}
        height={size}
        onLoad={image.onLoad}
        onError={image.onError}
        className="relative rounded-full object-cover"
        style={{ width: size, height: size }}
      />
    </span>
  );
}

/** The avatar's account menu: who is signed in, profile, settings, sign out (a Radix popover). */
export function AvatarMenu({ user }: { user: ShellUser }) {
  const [open, setOpen] = useState(false);
  useResetOnNavigate(() => setOpen(false));
  const image = useImageLoading(user.avatarUrl);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger aria-label="Account menu" aria-busy={image.loading || undefined} className="rounded-full p-0.5 hover:ring-2 hover:ring-slate-200">
        <Avatar user={user} image={image} />
      </PopoverTrigger>
      <PopoverContent aria-label="Account" className="w-64">
        <div className="border-b border-slate-100 px-3 py-2">
          <p className="truncate text-sm font-semibold text-slate-900">{user.displayName}</p>
          <p className="truncate text-xs text-slate-500">{user.email}</p>
        </div>
        <Link to="/profile" className="flex items-center gap-2 rounded px-3 py-2 text-sm text-slate-700 hover:bg-slate-100">
          <User className="h-4 w-4" aria-hidden="true" /> Profile
        </Link>
        <Link to="/settings" className="flex items-center gap-2 rounded px-3 py-2 text-sm text-slate-700 hover:bg-slate-100">
          <Settings className="h-4 w-4" aria-hidden="true" /> Settings
        </Link>
        <Form method="post" action="/auth/sign-out" reloadDocument>
          <button type="submit" className="flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100">
            <LogOut className="h-4 w-4" aria-hidden="true" /> Sign out
          </button>
        </Form>
      </PopoverContent>
    </Popover>
  );
}
