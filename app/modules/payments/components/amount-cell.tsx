import { Td } from "~/ui/table";
import { formatCents } from "../money";

/** A sum of money in a table: right-aligned in figures of one width, so that the amounts line up. */
export function AmountTd({ label, cents, className }: { label?: string; cents: number; className?: string }) {
  return (
    <Td label={label} className={className ? `text-right tabular-nums ${className}` : "text-right tabular-nums"}>
      {formatCents(cents)}
    </Td>
  );
}
