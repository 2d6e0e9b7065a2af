import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "./open.js";
import { audit_events, users } from "./schema.js";

// Who did what in a workspace (issue 28): runs started, paused, deleted; labels changed. Written
// beside the change it records; read per thing (a run's page) or for the whole workspace.

export interface AuditEntry {
  workspaceId: string;
  /** The person who did it; null for the system (a worker, a schedule). */
  userId: string | null;
  action: string;
  subjectType: string;
  subjectId: string;
  detail?: Record<string, unknown>;
}

export async function recordAudit(db: Pick<Db, "insert">, entry: AuditEntry): Promise<void> {
  await db.insert(audit_events).values({
    workspace_id: entry.workspaceId,
    user_id: entry.userId,
    action: entry.action,
    subject_type: entry.subjectType,
    subject_id: entry.subjectId,
    detail: entry.detail ?? {},
  });
}

export interface AuditEvent {
  id: number;
  action: string;
  subject_type: string;
  subject_id: string;
  detail: Record<string, unknown>;
  user_name: string | null;
  created_at: Date;
}

/** The workspace's audit events, newest first; of one thing when `subject` is given. */
export async function listAudit(
  db: Db,
  workspaceId: string,
  options: { subjectType?: string; subjectId?: string; before?: number; limit: number },
): Promise<AuditEvent[]> {
  const where = [eq(audit_events.workspace_id, workspaceId)];
  if (options.subjectType) where.push(eq(audit_events.subject_type, options.subjectType));
  if (options.subjectId) where.push(eq(audit_events.subject_id, options.subjectId));
  if (options.before !== undefined) where.push(lt(audit_events.id, options.before));
  return db
    .select({
      id: audit_events.id,
      action: audit_events.action,
      subject_type: audit_events.subject_type,
      subject_id: audit_events.subject_id,
      detail: audit_events.detail,
      user_name: users.name,
      created_at: audit_events.created_at,
    })
    .from(audit_events)
    .leftJoin(users, eq(users.id, audit_events.user_id))
    .where(and(...where))
    .orderBy(desc(audit_events.id))
    .limit(options.limit);
}
