import { Skeleton } from "@/components/ui/skeleton";

/** Shown at once when a console page is opened, while its data comes from Kafka. */
export default function Loading() {
  return <Skeleton label="Loading the page" lines={3} table />;
}
