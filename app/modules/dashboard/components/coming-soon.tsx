import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/error-screen";
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

/**
 * The route exports of a placeholder page: `meta` (the title), the component and the error
 * boundary. The route keeps its own loader (the guard):
 * `const page = comingSoonPage({...}); export const meta = page.meta; export default page.Page;`
 */
export function comingSoonPage({ title, description, empty, text }: { title: string; description: string; empty: string; text: string }) {
  return {
    meta: () => [{ title: `${title} | Shortbeat` }],
    Page: function Page() {
      return (
        <ComingSoon title={title} description={description} empty={empty}>
          {text}
        </ComingSoon>
      );
    },
    ErrorBoundary: GeneralErrorBoundary,
  };
}
