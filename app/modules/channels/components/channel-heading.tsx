/**
 * A submitted channel's name and the URL its creator gave (a link that leaves the site), or
 * "No URL given": the head of a manual submission, on /channels and in the verification queue.
 */
export function ChannelHeading({
  name,
  url,
  level,
  linkClassName,
}: {
  name: string;
  url: string | null;
  level: "h3" | "h4";
  /** The link's text colour; the rest of its look is fixed. */
  linkClassName: string;
}) {
  const Heading = level;
  return (
    <>
      <Heading className="font-semibold break-words text-slate-900">{name}</Heading>
      {url ? (
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className={`text-sm break-all ${linkClassName} underline underline-offset-2 hover:text-slate-900`}
        >
          {url}
        </a>
      ) : (
        <p className="text-sm text-slate-600">No URL given</p>
      )}
    </>
  );
}
