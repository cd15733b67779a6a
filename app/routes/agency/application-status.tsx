import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState } from "~/components/page";

// Placeholder: built by the admin and agencies issue.
export default function Page() {
  return (
    <main className="mx-auto max-w-xl p-6">
      <EmptyState title="Coming soon">
        <p>This page is being built.</p>
      </EmptyState>
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
