import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { type DragEvent, type FormEvent, useState } from "react";
import { api, ApiError, must } from "../../api/client";
import { collectionsKey, useCollections } from "../../api/queries";
import { useCan } from "../../api/session";
import { ErrorNote } from "../../components/ErrorNote";
import { useI18n } from "../../i18n/i18n";
import { AskPanel } from "./AskPanel";
import { problemOnFile, uploadEntryOf } from "./uploads";

function DocumentUpload({ collectionId }: { collectionId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [over, setOver] = useState(false);
  const [names, setNames] = useState<string[]>([]);
  const upload = useMutation({
    mutationFn: async (files: File[]) => {
      setNames(files.map((f) => f.name));
      const documents = await Promise.all(files.map(uploadEntryOf));
      return must(
        api.POST("/api/v1/collections/{id}/documents", {
          params: { path: { id: collectionId } },
          body: { documents },
        }),
      );
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: collectionsKey }),
  });
  const send = (files: FileList | null | undefined) => {
    if (files && files.length > 0) upload.mutate([...files]);
  };
  const issues =
    ApiError.isInstance(upload.error) &&
    Array.isArray((upload.error.body as { issues?: unknown })?.issues)
      ? (upload.error.body as { issues: { path: string; message: string }[] }).issues
      : undefined;
  return (
    <section aria-labelledby="upload-title">
      <h2 id="upload-title">{t("col.upload")}</h2>
      <div
        className={`dropzone${over ? " over" : ""}`}
        data-testid="document-dropzone"
        onDragOver={(e: DragEvent) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e: DragEvent) => {
          e.preventDefault();
          setOver(false);
          send(e.dataTransfer.files);
        }}
      >
        <label className="inline" style={{ justifyContent: "center" }}>
          {t("col.dropHere")}
          <input
            type="file"
            multiple
            accept=".md,.markdown,.txt,.html,.htm,.pdf,.jsonl"
            onChange={(e) => send(e.target.files)}
            data-testid="document-files"
          />
        </label>
      </div>
      <div aria-live="polite">
        {upload.isPending && <p>{t("common.loading")}</p>}
        {upload.isSuccess && (
          <p className="notice good">{t("col.uploaded", { n: names.length })}</p>
        )}
        {issues ? (
          <div className="notice bad" role="alert">
            <strong>{upload.error?.message}</strong>
            <ul>
              {issues.map((issue, i) => (
                <li key={i}>
                  <strong>{problemOnFile(issue.path, names)}</strong>: {issue.message}
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <ErrorNote error={upload.error} />
        )}
      </div>
    </section>
  );
}

/** Collections: list and create them, upload documents, and ask the built-in bot. */
export function CollectionsPage() {
  const { t } = useI18n();
  const search = useSearch({ from: "/collections" });
  const navigate = useNavigate({ from: "/collections" });
  const writes = useCan("write");
  const queryClient = useQueryClient();
  const collections = useCollections();
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: async () => must(api.POST("/api/v1/collections", { body: { name } })),
    onSuccess: (collection) => {
      setName("");
      void queryClient.invalidateQueries({ queryKey: collectionsKey });
      void navigate({ search: { id: collection.id } });
    },
  });
  const selected =
    collections.data?.find((c) => c.id === search.id) ??
    (search.id ? undefined : collections.data?.[0]);

  return (
    <main id="main" tabIndex={-1}>
      <h1>{t("col.title")}</h1>
      <ErrorNote error={collections.error} />
      {collections.data?.length === 0 && <p className="muted">{t("col.empty")}</p>}
      {collections.data && collections.data.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("col.name")}</th>
                <th scope="col">{t("col.documents")}</th>
                <th scope="col">{t("col.chunks")}</th>
              </tr>
            </thead>
            <tbody>
              {collections.data.map((c) => (
                <tr key={c.id} aria-selected={c.id === selected?.id}>
                  <td>
                    <button
                      type="button"
                      className={c.id === selected?.id ? "primary" : undefined}
                      aria-pressed={c.id === selected?.id}
                      onClick={() => void navigate({ search: { id: c.id } })}
                    >
                      {c.name}
                    </button>
                  </td>
                  <td>{c.document_count ?? "—"}</td>
                  <td>{c.chunk_count ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {writes && (
        <form
          className="row"
          style={{ marginTop: "0.75rem" }}
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            if (name.trim()) create.mutate();
          }}
        >
          <label>
            {t("col.name")}
            <input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit" disabled={!name.trim() || create.isPending}>
            {t("col.create")}
          </button>
        </form>
      )}
      <ErrorNote error={create.error} />
      {selected && (
        <>
          <h2 style={{ marginTop: "1.5rem" }}>{selected.name}</h2>
          {writes && <DocumentUpload collectionId={selected.id} />}
          {writes && <AskPanel collectionId={selected.id} />}
        </>
      )}
    </main>
  );
}
