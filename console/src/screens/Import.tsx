// Import: choose a CSV file of customers or appointments, see the dry run's report (every row with an
// error, by line), then import. Both steps send the same file to the same operation; the dry run
// writes nothing. Through the generated client only.
import { useState } from 'preact/hooks';
import { useApp, useAction } from '../api.ts';
import type { Ok } from '../../../client/index.ts';

type Report = Ok<'/api/v1/imports/customers', 'post'>;
type Kind = 'customers' | 'appointments';

export function Import() {
  const { api, session, notify } = useApp();
  const [kind, setKind] = useState<Kind>('customers');
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState('');
  const [report, setReport] = useState<Report | null>(null);
  const action = useAction();

  async function send(dryRun: boolean) {
    if (!file) return;
    const query = {
      store_id: session.storeId,
      dry_run: dryRun,
      ...(mapping.trim() ? { mapping: mapping.trim() } : {}),
    };
    const options = {
      params: { query },
      // The file goes as it is: text/csv, streamed by the service.
      body: file as unknown as string,
      bodySerializer: (b: unknown) => b as BodyInit,
      headers: { 'content-type': 'text/csv' },
    };
    const r = await action.run(() =>
      kind === 'customers'
        ? api.POST('/api/v1/imports/customers', options)
        : api.POST('/api/v1/imports/appointments', options),
    );
    if (!r) return;
    setReport(r);
    if (!dryRun)
      notify(`Imported: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ${r.skipped} skipped`);
  }

  return (
    <section aria-labelledby="import-title">
      <div class="toolbar">
        <h1 id="import-title">Import</h1>
      </div>
      <form
        class="card form"
        aria-label="Import a file"
        onSubmit={(e) => {
          e.preventDefault();
          void send(true);
        }}
      >
        <label>
          What the file holds
          <select
            name="kind"
            value={kind}
            onChange={(e) => {
              setKind(e.currentTarget.value as Kind);
              setReport(null);
            }}
          >
            <option value="customers">Customers</option>
            <option value="appointments">Appointments</option>
          </select>
        </label>
        <label>
          CSV file (UTF-8, comma or semicolon, a header row)
          <input
            type="file"
            name="file"
            accept=".csv,text/csv"
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              setReport(null);
            }}
          />
        </label>
        <label>
          Other columns (optional JSON, e.g. {'{"Client Ref": "external_id", "Birthday": null}'})
          <input name="mapping" value={mapping} onInput={(e) => setMapping(e.currentTarget.value)} />
        </label>
        {action.error && (
          <p class="error" role="alert" data-testid="import-error">
            {action.error}
          </p>
        )}
        <div class="actions">
          <button type="submit" disabled={!file || action.busy}>
            Check the file
          </button>
          <button type="button" disabled={!file || action.busy || !report?.dry_run} onClick={() => void send(false)}>
            Import
          </button>
        </div>
      </form>
      {report && <ImportReport report={report} />}
    </section>
  );
}

function ImportReport({ report }: { report: Report }) {
  return (
    <section class="card" aria-labelledby="report-title" data-testid="import-report">
      <h2 id="report-title">{report.dry_run ? 'What an import would do' : 'What the import did'}</h2>
      <p>
        {report.rows} rows: {report.created} new, {report.updated} updated, {report.unchanged} unchanged,{' '}
        {report.skipped} with errors.
      </p>
      {report.errors.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Field</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {report.errors.slice(0, 500).map((e) => (
              <tr key={`${e.row}-${e.field}`}>
                <td>{e.row}</td>
                <td>{e.field}</td>
                <td>
                  {e.message} <small>({e.code})</small>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
