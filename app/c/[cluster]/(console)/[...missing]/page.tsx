import { notFound } from "next/navigation";

/**
 * Any address no page answers: the console's not-found page, inside its frame (with the
 * menu), rather than Next's bare 404 outside it.
 */
export default function Missing(): never {
  notFound();
}
