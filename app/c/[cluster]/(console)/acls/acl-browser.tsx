"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent, type MouseEvent } from "react";
import { fetchApi } from "@/components/ui/query";
import { FilterButtons } from "@/components/ui/filter-buttons";
import { useClusterHref } from "@/components/cluster-address";
import {
  aclKeys,
  aclListApiPath,
  aclListHref as aclListPath,
  withParams,
  type AclListParams,
} from "@/components/acls/acl-list-params";
import {
  LINT_CODES,
  OPERATIONS,
  PATTERN_TYPES,
  PERMISSION_TYPES,
  RESOURCE_TYPES,
  type ResourceType,
} from "@/lib/policy";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { operationsFor } from "@/components/ui/select";
import { Alert } from "@/components/ui/alert";
import { Combobox } from "@/components/ui/combobox";
import type { AclListResult, AclSortColumn } from "@/lib/schemas/acls";
import { AclTable } from "./acl-table";

/** How long typing pauses before the list is asked again. */
const TYPING_PAUSE_MS = 250;

/**
 * The ACL list with JavaScript: the filters apply as you type (the previous answer stays
 * on screen until the next arrives), a column header sorts, the next page is fetched
 * ahead, and the address follows (reload and bookmarks keep the view). The first answer
 * is the server's render; without JavaScript the same markup is a GET form and links.
 * `principals`: the principals the cluster's ACLs name, offered as the principal filter is typed.
 */
export function AclBrowser({
  initialParams,
  initialList,
  errors,
  principals = [],
}: {
  initialParams: AclListParams;
  initialList: AclListResult;
  errors: Record<string, string[]>;
  principals?: readonly string[];
}) {
  const queryClient = useQueryClient();
  const clusterHref = useClusterHref();
  const aclListHref = (p: AclListParams, extra?: AclListParams) => clusterHref(aclListPath(p, extra));
  const [fields, setFields] = useState<AclListParams>(initialParams);
  const [params, setParams] = useState<AclListParams>(initialParams);
  // The server's answer for this address is the newest there is: it replaces what the
  // tab cached for the same filters on an earlier visit (the query cache outlives pages).
  useState(() => queryClient.setQueryData(aclKeys.list(initialParams), initialList));

  // Typing: the list follows once the user pauses; page 1 of the new filters.
  useEffect(() => {
    const next = withParams(fields, {
      page: fields.page === params.page && sameFilters(fields, params) ? (params.page ?? "1") : "1",
    });
    if (JSON.stringify(next) === JSON.stringify(params)) return;
    const timer = setTimeout(() => setParams(next), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [fields, params]);

  useEffect(() => {
    const href = clusterHref(aclListPath(params));
    if (window.location.pathname + window.location.search !== href)
      window.history.replaceState(window.history.state, "", href);
  }, [params, clusterHref]);

  const list = useQuery({
    queryKey: aclKeys.list(params),
    queryFn: ({ signal }) => fetchApi<AclListResult>(aclListApiPath(params), signal),
    placeholderData: keepPreviousData,
  });
  const data = list.data ?? initialList;

  // The next page, fetched ahead so "Next" answers at once.
  useEffect(() => {
    if (list.isPlaceholderData || data.page >= data.pages) return;
    const next = withParams(params, { page: String(data.page + 1) });
    void queryClient.prefetchQuery({
      queryKey: aclKeys.list(next),
      queryFn: ({ signal }) => fetchApi<AclListResult>(aclListApiPath(next), signal),
    });
  }, [queryClient, params, data.page, data.pages, list.isPlaceholderData]);

  const go = (change: AclListParams) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const next = withParams(params, change);
    setFields(next);
    setParams(next);
  };
  const refresh = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    // A read of Kafka for this view; the other cached pages are read again when shown.
    const fresh = await queryClient.fetchQuery({
      queryKey: aclKeys.list(params),
      queryFn: ({ signal }) => fetchApi<AclListResult>(aclListApiPath(params, true), signal),
      staleTime: 0,
    });
    await queryClient.invalidateQueries({ queryKey: aclKeys.all, predicate: (q) => q.state.data !== fresh });
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setParams(withParams(fields, { page: "1" }));
  };
  const set = (name: string) => (event: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [name]: event.target.value }));
  const value = (name: string, fallback: string) => fields[name] ?? fallback;

  return (
    <>
      <FilterForm
        value={value}
        set={set}
        onSubmit={submit}
        errors={errors}
        sort={params.sort ?? "resourceType"}
        order={params.order ?? "asc"}
        principals={principals}
      />
      {list.isError && (
        <Alert tone="error" testId="acls-error">
          {list.error.message}
        </Alert>
      )}
      <div className="row acl-summary" aria-busy={list.isFetching}>
        <Summary list={data} />
        <SnapshotTime
          list={data}
          refreshHref={aclListHref(params, { refresh: "1" })}
          onRefresh={(event) => void refresh(event)}
          pending={list.isFetching}
        />
        {data.pages > 1 && (
          <nav className="row" aria-label="Pages">
            {data.page > 1 && (
              <a
                href={aclListHref(withParams(params, { page: String(data.page - 1) }))}
                onClick={go({ page: String(data.page - 1) })}
                data-in-page=""
              >
                ← Previous
              </a>
            )}
            <span>
              Page {data.page} of {data.pages}
            </span>
            {data.page < data.pages && (
              <a
                href={aclListHref(withParams(params, { page: String(data.page + 1) }))}
                onClick={go({ page: String(data.page + 1) })}
                data-in-page=""
              >
                Next →
              </a>
            )}
          </nav>
        )}
      </div>
      {/* Always mounted, so the result of a deletion stays on screen when the page it emptied re-renders. */}
      <AclTable
        acls={data.acls}
        sort={{
          column: (params.sort ?? "resourceType") as AclSortColumn,
          order: params.order === "desc" ? "desc" : "asc",
          href: (column, order) => aclListHref(withParams(params, { sort: column, order, page: "1" })),
          onSort: (column, order, event) => go({ sort: column, order, page: "1" })(event),
        }}
      />
    </>
  );
}

const FILTERS = [
  "principal",
  "principalMatch",
  "resourceType",
  "resourceName",
  "nameMatch",
  "patternType",
  "host",
  "operation",
  "permissionType",
  "lintCode",
];
const sameFilters = (a: AclListParams, b: AclListParams) => FILTERS.every((k) => (a[k] ?? "") === (b[k] ?? ""));

function Summary({ list }: { list: AclListResult }) {
  const from = list.matching === 0 ? 0 : (list.page - 1) * list.pageSize + 1;
  const to = Math.min(list.page * list.pageSize, list.matching);
  return (
    <span data-testid="acl-count">
      {list.matching === 0 ? "0" : `${from}–${to}`} of {list.matching.toLocaleString("en")} matching (
      {list.total.toLocaleString("en")} ACLs in all)
    </span>
  );
}

/** When the shared snapshot was read from Kafka, and a way to read it again now. */
function SnapshotTime({
  list,
  refreshHref,
  onRefresh,
  pending,
}: {
  list: AclListResult;
  refreshHref: string;
  onRefresh: (event: MouseEvent<HTMLAnchorElement>) => void;
  pending: boolean;
}) {
  const seconds = Math.round(list.snapshot.ageMs / 1000);
  return (
    <span className="muted" data-testid="acl-snapshot">
      Read from Kafka at <time dateTime={list.snapshot.takenAt}>{list.snapshot.takenAt.slice(11, 19)} UTC</time> (
      {seconds < 1 ? "just now" : `${seconds} s before this answer`}).{" "}
      <a href={refreshHref} onClick={onRefresh} aria-disabled={pending} data-in-page="">
        Refresh
      </a>
    </span>
  );
}

function FilterForm({
  value,
  set,
  onSubmit,
  errors,
  sort,
  order,
  principals,
}: {
  value: (name: string, fallback: string) => string;
  set: (name: string) => (event: { target: { value: string } }) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  errors: Record<string, string[]>;
  sort: string;
  order: string;
  principals: readonly string[];
}) {
  const clusterHref = useClusterHref();
  const select = (name: string, label: string, options: readonly (string | [string, string])[], fallback = "ANY") => (
    <Field id={`acl-filter-${name}`} label={label} errors={errors[name]}>
      <select name={name} value={value(name, fallback)} onChange={set(name)}>
        {options.map((o) => {
          const [v, text] = typeof o === "string" ? [o, o] : o;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </Field>
  );
  const text = (name: string, label: string, placeholder: string, hint?: string) => (
    <Field id={`acl-filter-${name}`} label={label} hint={hint} errors={errors[name]}>
      <input name={name} value={value(name, "")} onChange={set(name)} placeholder={placeholder} />
    </Field>
  );
  const type = value("resourceType", "ANY");
  // With a resource type chosen, the operations an ACL on that type can have (a filter on any other finds nothing).
  const operations = (RESOURCE_TYPES as readonly string[]).includes(type)
    ? operationsFor(type as ResourceType)
    : OPERATIONS;
  const operation = value("operation", "ANY");
  return (
    <form className="card" method="get" action={clusterHref("/acls")} aria-label="Filter ACLs" onSubmit={onSubmit}>
      <FormGrid>
        <Field
          id="acl-filter-principal"
          label="Principal"
          hint="A name without a type means a user: alice is User:alice."
          errors={errors.principal}
        >
          <Combobox
            name="principal"
            value={value("principal", "")}
            onChange={set("principal")}
            placeholder="User:alice"
            suggestions={principals}
          />
        </Field>
        {select(
          "principalMatch",
          "Principal match",
          [
            ["exact", "exact"],
            ["contains", "contains (any case)"],
          ],
          "exact",
        )}
        {select("resourceType", "Resource type", ["ANY", ...RESOURCE_TYPES])}
        {text("resourceName", "Resource name", "orders")}
        {select(
          "nameMatch",
          "Name match",
          [
            ["exact", "exact name"],
            ["prefix", "names starting with"],
            ["match", "ACLs that apply to it (Kafka's MATCH)"],
          ],
          "exact",
        )}
        {select("patternType", "Pattern type", ["ANY", ...PATTERN_TYPES])}
        {text("host", "Host", "* or an IP address")}
        {select("operation", "Operation", [
          "ANY",
          ...operations,
          ...(operation !== "ANY" && !(operations as readonly string[]).includes(operation) ? [operation] : []),
        ])}
        {select("permissionType", "Permission", ["ANY", ...PERMISSION_TYPES])}
        {select("lintCode", "Lint finding", ["ANY", ...LINT_CODES])}
        {sort !== "resourceType" && <input type="hidden" name="sort" value={sort} />}
        {order !== "asc" && <input type="hidden" name="order" value={order} />}
        <FormActions>
          <FilterButtons clearHref="/acls" />
          {[...(errors.page ?? []), ...(errors.sort ?? [])].map((m) => (
            <span key={m} className="field-error">
              {m}
            </span>
          ))}
        </FormActions>
      </FormGrid>
    </form>
  );
}
