import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import { workspacesKey } from "../../api/queries";
import type { WorkspaceRole } from "../../api/types";

export const membersKey = ["workspace", "members"] as const;
export const invitationsKey = ["workspace", "invitations"] as const;

export function useMembers() {
  return useQuery({
    queryKey: membersKey,
    queryFn: async () => (await must(api.GET("/api/v1/workspace/members"))).items,
  });
}

export function useInvitations(enabled: boolean) {
  return useQuery({
    queryKey: invitationsKey,
    queryFn: async () => (await must(api.GET("/api/v1/workspace/invitations"))).items,
    enabled,
  });
}

export function useSetRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: WorkspaceRole }) =>
      must(
        api.PATCH("/api/v1/workspace/members/{userId}", {
          params: { path: { userId } },
          body: { role },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersKey }),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      must(api.DELETE("/api/v1/workspace/members/{userId}", { params: { path: { userId } } })),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: membersKey });
      void queryClient.invalidateQueries({ queryKey: workspacesKey });
    },
  });
}

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { role: WorkspaceRole; expires_in_hours: number }) =>
      must(api.POST("/api/v1/workspace/invitations", { body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationsKey }),
  });
}

export function useWithdrawInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      must(api.DELETE("/api/v1/workspace/invitations/{id}", { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationsKey }),
  });
}

export function useCreateToken() {
  return useMutation({
    mutationFn: () => must(api.POST("/api/v1/workspace/tokens", { body: { label: "web" } })),
  });
}

export function useRenameWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => must(api.PATCH("/api/v1/workspace", { body: { name } })),
    onSettled: () => queryClient.invalidateQueries(),
  });
}

export function useDeleteWorkspace() {
  return useMutation({
    mutationFn: () => must(api.DELETE("/api/v1/workspace")),
  });
}
