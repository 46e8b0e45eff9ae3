"use client";

import { useId, useState, type FormEvent } from "react";
import { requestUrl, typeLabel, type ParameterView } from "./model";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import styles from "./api-reference.module.css";

type Answer = { status: number; statusText: string; body: string; json: boolean } | { error: string };

const MAX_SHOWN = 200_000;

function pretty(text: string): { body: string; json: boolean } {
  try {
    return { body: JSON.stringify(JSON.parse(text), null, 2), json: true };
  } catch {
    return { body: text, json: false };
  }
}

/**
 * A form for one GET operation: its parameters (prefilled from the first example), sent
 * from the browser with the session cookie; the answer is shown as it came back.
 */
export function TryIt(props: {
  title: string;
  path: string;
  parameters: Pick<ParameterView, "name" | "in" | "required" | "description" | "schema">[];
  exampleSets: { name: string; summary: string; values: Record<string, string> }[];
}) {
  const id = useId();
  const fields = props.parameters.filter((p) => p.in === "path" || p.in === "query");
  const [values, setValues] = useState<Record<string, string>>(props.exampleSets[0]?.values ?? {});
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [pending, setPending] = useState(false);
  const url = requestUrl(props.path, fields, values);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } });
      const text = await response.text();
      setAnswer({
        status: response.status,
        statusText: response.statusText,
        ...pretty(text.length > MAX_SHOWN ? text.slice(0, MAX_SHOWN) : text),
      });
    } catch (error) {
      setAnswer({ error: error instanceof Error ? error.message : "The request failed" });
    } finally {
      setPending(false);
    }
  };

  return (
    <form className={styles.tryIt} onSubmit={(event) => void send(event)} aria-label={`Try ${props.title}`}>
      {props.exampleSets.length > 1 && (
        <div className="row">
          <span className="muted">Fill in an example:</span>
          {props.exampleSets.map((set) => (
            <button
              key={set.name}
              type="button"
              className="btn secondary small"
              title={set.summary}
              onClick={() => setValues(set.values)}
            >
              {set.name}
            </button>
          ))}
        </div>
      )}
      {fields.length > 0 && (
        <div className={styles.tryFields}>
          {fields.map((p) => {
            const options = Array.isArray(p.schema.enum) ? (p.schema.enum as unknown[]).map(String) : null;
            const value = values[p.name] ?? "";
            const set = (v: string) => setValues((old) => ({ ...old, [p.name]: v }));
            return (
              <label key={p.name} className="field" htmlFor={`${id}-${p.name}`}>
                <span>
                  {p.name} {p.required && <span className={styles.required}>required</span>}
                </span>
                {options ? (
                  <select
                    id={`${id}-${p.name}`}
                    value={value}
                    required={p.required}
                    onChange={(e) => set(e.target.value)}
                  >
                    <option value="">{p.required ? "choose…" : "(not sent)"}</option>
                    {options.map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={`${id}-${p.name}`}
                    value={value}
                    required={p.required}
                    placeholder={typeLabel(p.schema)}
                    onChange={(e) => set(e.target.value)}
                  />
                )}
              </label>
            );
          })}
        </div>
      )}
      <div className="row">
        <button type="submit" className="btn small" disabled={pending}>
          {pending ? "Sending…" : "Send request"}
        </button>
        <code className={styles.url}>GET {url}</code>
      </div>
      {answer && "error" in answer && <Alert tone="error">{answer.error}</Alert>}
      {answer && !("error" in answer) && (
        <div className={styles.answer}>
          <p>
            <Badge tone={answer.status < 400 ? "ok" : "bad"} aria-label="Status">
              HTTP {answer.status} {answer.statusText}
            </Badge>
          </p>
          <pre aria-label={`Answer of ${props.title}`}>{answer.body}</pre>
        </div>
      )}
    </form>
  );
}
