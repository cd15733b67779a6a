import type { AnchorHTMLAttributes } from "react";

/**
 * A link to a page of the app as a plain anchor, for places with many links (a table's rows, a
 * page's cards): the `useInAppLinks` listener of an element around it follows it client-side, as a
 * <Link> would, without a Link's hooks for each one on the server (app/ui/in-app-links.ts,
 * docs/decisions/0346). The same markup as a <Link to={to}>. `to` is a path of this app ("/music?page=2").
 */
export function InAppLink({ to, ...props }: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string }) {
  return <a {...props} href={to} data-discover="true" />;
}
