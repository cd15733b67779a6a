import { data } from "react-router";

// Placeholder: the notifications and media issue serves R2 objects here.
export function loader() {
  throw data("Not Found", { status: 404 });
}
