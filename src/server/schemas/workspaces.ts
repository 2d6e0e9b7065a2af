import { z } from "zod";
import { WORKSPACE_ROLES } from "../../store/index.js";

// Workspaces, their members and invitations, API tokens per workspace, the audit trail (issue 28
// §1).

const RoleSchema = z.enum(WORKSPACE_ROLES);
const NameSchema = z.string().trim().min(1).max(100).describe("1-100 characters");

export const WorkspaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  personal: z.boolean(),
  role: RoleSchema,
  members: z.number().int(),
});

export const MemberSchema = z.object({
  user_id: z.uuid(),
  name: z.string(),
  role: RoleSchema,
  joined_at: z.string(),
});

export const InvitationSchema = z.object({
  id: z.uuid(),
  role: RoleSchema,
  created_at: z.string(),
  expires_at: z.string(),
});

export const AuditEventSchema = z.object({
  id: z.number().int(),
  action: z.string(),
  subject_type: z.string(),
  subject_id: z.string(),
  detail: z.record(z.string(), z.unknown()),
  user_name: z.string().nullable(),
  created_at: z.string(),
});

export const WorkspaceListSchema = z.object({ items: z.array(WorkspaceSchema) });
export const MemberListSchema = z.object({ items: z.array(MemberSchema) });
export const InvitationListSchema = z.object({ items: z.array(InvitationSchema) });
/** An invitation with its one-time link, shown once. */
export const CreatedInvitationSchema = InvitationSchema.extend({ url: z.string() });
/** An API token, shown once. */
export const CreatedTokenSchema = z.object({ token: z.string() });
export const AuditEventListSchema = z.object({ items: z.array(AuditEventSchema) });

// Request bodies.

export const WorkspaceNameSchema = z.object({ name: NameSchema }).strict();
export const MemberRoleSchema = z.object({ role: RoleSchema }).strict();
export const InvitationRequestSchema = z
  .object({
    role: RoleSchema,
    expires_in_hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 14)
      .default(72),
  })
  .strict();
export const TokenRequestSchema = z
  .object({ label: z.string().trim().max(200).default("") })
  .strict();
