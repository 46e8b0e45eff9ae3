"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { curlCommand } from "./model";
import { useOrigin } from "./use-origin";
import styles from "./api-reference.module.css";

/** The curl command for a change (shown instead of a live button: changes are not sent from this page). */
export function CurlExample(props: { method: string; path: string; body?: unknown; public?: boolean; title: string }) {
  const origin = useOrigin();
  const command = curlCommand({
    origin,
    method: props.method,
    path: props.path,
    body: props.body,
    public: props.public,
  });
  return (
    <div className={styles.curl}>
      <div className="row">
        <span className={styles.exampleTitle}>{props.title}</span>
        <span className="row">
          <CopyButton text={command} label={`Copy curl: ${props.title}`} from="text">
            Copy
          </CopyButton>
        </span>
      </div>
      <pre aria-label={`curl: ${props.title}`}>{command}</pre>
    </div>
  );
}
