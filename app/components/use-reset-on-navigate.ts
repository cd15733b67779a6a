import { useState } from "react";
import { useLocation } from "react-router";

/** Calls `reset` when the page (pathname) changes: the mobile sidebar and the menus close on navigation. */
export function useResetOnNavigate(reset: () => void) {
  const { pathname } = useLocation();
  const [seen, setSeen] = useState(pathname);
  if (seen !== pathname) {
    setSeen(pathname);
    reset();
  }
}
