// The printable statement (/payments, issue 14): a print stylesheet rendered with the page (inline,
// so it arrives with the HTML in every build): only the page's content, black on white, tables
// unclipped, rows never split across pages.
export const STATEMENT_PRINT_CSS = `@media print {
  #app-sidebar,
  #app-sidebar + div > header,
  a[href="#main"],
  [data-toaster] {
    display: none !important;
  }
  html,
  body,
  body > div {
    background: #fff !important;
    color: #000 !important;
  }
  #app-sidebar + div {
    padding-left: 0 !important;
  }
  #main {
    max-width: none !important;
    padding: 0 !important;
  }
  [role="region"],
  .overflow-x-auto,
  .overflow-auto {
    overflow: visible !important;
    max-height: none !important;
  }
  tr,
  section > div.rounded-xl {
    break-inside: avoid;
  }
  table {
    width: 100%;
    border-collapse: collapse;
  }
  th,
  td {
    border-bottom: 1px solid #999;
  }
  a {
    color: #000;
    text-decoration: none;
  }
  @page {
    margin: 15mm;
  }
}`;
