import type { ReactNode } from "react";
import { EmptyState } from "~/ui/empty-state";
import { PageHeader } from "~/ui/page-header";

/**
 * The page of an area that is not built yet: its header, then an empty state saying what will
 * come. Each route keeps its own meta and the guard in its loader.
 */
export function ComingSoon({
  title,
  description,
  empty,
  children,
}: {
  title: string;
  description: string;
  /** The empty state's heading, e.g. "Chat opens soon". */
  empty: string;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <EmptyState title={empty}>
        <p>{children}</p>
      </EmptyState>
    </>
  );
}
