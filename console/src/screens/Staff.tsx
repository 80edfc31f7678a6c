// The store's staff (owners and managers): invite a person with a role, and change a member's role,
// permissions, unit or disabled. The controls offer only what this person's role may give; the API
// decides (a refusal shows its message and the row reloads).
import { useEffect, useState } from 'preact/hooks';
import { errorMessage, type Ok } from '../../../client/index.ts';
import { useApp } from '../api.ts';
import { assignableRoles, mayManage, ROLE_LABELS } from '../roles.ts';
import type { Role } from '../session.ts';

type Member = Ok<'/api/v1/staff', 'get'>['staff'][number];
type Unit = { id: string; display_name: string };
type Patch = { role?: Role; permissions?: Array<'can_process_payments'>; unit_id?: string | null; disabled?: boolean };

export function Staff() {
  const { api, session, notify } = useApp();
  const [staff, setStaff] = useState<Member[] | null>(null);
  const [units, setUnits] = useState<Unit[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('front_desk');
  const roles = assignableRoles(session);

  const load = async () => {
    const { data, error: failure } = await api.GET('/api/v1/staff', {});
    if (data) setStaff(data.staff);
    else setError(errorMessage(failure));
  };
  useEffect(() => {
    void load();
    void api
      .GET('/api/v1/bookings/units', { params: { query: { store_id: session.storeId } } })
      .then(({ data }) => data && setUnits(data.units));
  }, []);

  async function guarded(work: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  }

  const invite = (e: Event) => {
    e.preventDefault();
    void guarded(async () => {
      const body = { email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) };
      const { data, error: failure } = await api.POST('/api/v1/staff/invitations', { body });
      if (!data) return setError(errorMessage(failure));
      setEmail('');
      setName('');
      notify(`Invitation sent to ${body.email}`);
    });
  };

  const change = (m: Member, patch: Patch) =>
    guarded(async () => {
      const { data, error: failure } = await api.PATCH('/api/v1/staff/{staffId}', {
        params: { path: { staffId: m.id } },
        body: patch,
      });
      if (!data) setError(errorMessage(failure));
      else notify(`${m.name} updated`);
      await load();
    });

  return (
    <section aria-labelledby="staff-title">
      <div class="toolbar">
        <h1 id="staff-title">Staff</h1>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <form class="inline-form" aria-label="Invite a person" onSubmit={invite}>
        <label>
          Email
          <input type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} required />
        </label>
        <label>
          Name (optional)
          <input value={name} maxLength={120} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Invite
        </button>
      </form>
      <table aria-labelledby="staff-title">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Takes payments</th>
            <th scope="col">Unit</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">Disabled</th>
          </tr>
        </thead>
        <tbody>
          {(staff ?? []).map((m) => {
            const editable = mayManage(session, m.role) && m.email !== session.email;
            const label = (what: string) => `${what} for ${m.name}`;
            return (
              <tr key={m.id} data-staff={m.email}>
                <td>{m.name}</td>
                <td>{m.email}</td>
                <td>
                  {editable ? (
                    <select
                      aria-label={label('Role')}
                      value={m.role}
                      disabled={busy}
                      onChange={(e) => void change(m, { role: e.currentTarget.value as Role })}
                    >
                      {roles.map((r) => (
                        <option key={r} value={r}>
                          {ROLE_LABELS[r]}
                        </option>
                      ))}
                    </select>
                  ) : (
                    ROLE_LABELS[m.role]
                  )}
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={label('Takes payments')}
                    checked={m.permissions.includes('can_process_payments')}
                    disabled={!editable || busy}
                    onChange={(e) =>
                      void change(m, { permissions: e.currentTarget.checked ? ['can_process_payments'] : [] })
                    }
                  />
                </td>
                <td>
                  {editable && m.role === 'staff' ? (
                    <select
                      aria-label={label('Unit')}
                      value={m.unit_id ?? ''}
                      disabled={busy}
                      onChange={(e) => void change(m, { unit_id: e.currentTarget.value || null })}
                    >
                      <option value="">None</option>
                      {units.map((u) => (
                        <option key={u.id} value={u.id}>
                          {u.display_name}
                        </option>
                      ))}
                    </select>
                  ) : (
                    (units.find((u) => u.id === m.unit_id)?.display_name ?? '—')
                  )}
                </td>
                <td>{m.last_sign_in_at ? new Date(m.last_sign_in_at).toLocaleString() : 'never'}</td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={label('Disabled')}
                    checked={m.disabled}
                    disabled={!editable || busy}
                    onChange={(e) => void change(m, { disabled: e.currentTarget.checked })}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
