import { Download, FileBadge } from "~/ui/icons";
import { Link } from "react-router";
import { EmptyState } from "~/ui/empty-state";
import { Table, TableHead, TableRegion } from "~/ui/table";
import { formatLicenceDate, type LicenceChannel, type LicenceSummary, licenceCertificatePath, licenceDownloadPath } from "../licence-code";

// 'My licences': every licence the creator holds, newest first, with the certificate and the
// file (while the track is in the library).

export function LicenceList({ licences }: { licences: (LicenceSummary & { channels: LicenceChannel[] })[] }) {
  if (licences.length === 0) {
    return (
      <EmptyState title="No licences yet" action={{ to: "/music", label: "Browse the library" }}>
        Choose a track in the library and press “Use this track”: the licence and its certificate appear here.
      </EmptyState>
    );
  }
  return (
    <TableRegion labelledBy="licences-heading">
      <h2 id="licences-heading" className="sr-only">
        Your licences
      </h2>
      <Table caption="Your licences, newest first">
        <TableHead
          columns={[
            "Track",
            { label: "Licence code", className: "hidden sm:table-cell" },
            { label: "Date", className: "hidden md:table-cell" },
            { label: <span className="sr-only">Actions</span>, key: "actions", className: "text-right" },
          ]}
        />
        <tbody className="divide-y divide-slate-100">
          {licences.map((l) => (
            <tr key={l.code}>
              <th scope="row" className="px-4 py-3 text-left font-normal break-words">
                <span className="block font-semibold text-slate-900">{l.title}</span>
                <span className="block text-sm text-slate-600">{l.artist}</span>
                {/* The channels it covers (decision 0248). */}
                <span className="block text-sm text-slate-700" data-testid="licence-channels">
                  {l.channels.length === 0 ? "No channel recorded" : `For ${l.channels.map((c) => c.title).join(", ")}`}
                </span>
                <span className="block font-mono text-xs whitespace-nowrap text-slate-600 sm:hidden">{l.code}</span>
                {l.withdrawnAt ? (
                  <span className="mt-1 inline-block rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">
                    Withdrawn {formatLicenceDate(l.withdrawnAt)}: valid for videos published before then
                  </span>
                ) : null}
              </th>
              <td className="hidden px-4 py-3 font-mono text-sm whitespace-nowrap text-slate-800 sm:table-cell">{l.code}</td>
              <td className="hidden px-4 py-3 text-sm whitespace-nowrap text-slate-700 md:table-cell">
                <time dateTime={l.createdAt}>{formatLicenceDate(l.createdAt)}</time>
              </td>
              <td className="px-4 py-3">
                <div className="flex items-center justify-end gap-2">
                  <Link
                    to={licenceCertificatePath(l.code)}
                    aria-label={`Certificate of ${l.title}`}
                    className="inline-flex h-10 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-100"
                  >
                    <FileBadge className="h-4 w-4" aria-hidden="true" />
                    <span className="hidden sm:inline">Certificate</span>
                  </Link>
                  {l.withdrawnAt ? null : (
                    <a
                      href={licenceDownloadPath(l.code)}
                      download
                      aria-label={`Download ${l.title}`}
                      className="inline-flex h-10 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-100"
                    >
                      <Download className="h-4 w-4" aria-hidden="true" />
                      <span className="hidden sm:inline">Download</span>
                    </a>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </TableRegion>
  );
}
