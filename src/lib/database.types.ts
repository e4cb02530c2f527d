// Generated from the database schema by `npm run gen:types` (scripts/gen-types.ts). Do not edit.

export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  public: {
    Tables: {
      admin_audit_log: {
        Row: {
          action: string
          actor_email: string | null
          actor_id: string | null
          after: Json | null
          at: string
          before: Json | null
          client_ip: string | null
          id: number
          target_id: string | null
          target_table: string
        }
        Insert: {
          action: string
          actor_email?: string | null
          actor_id?: string | null
          after?: Json | null
          at?: string
          before?: Json | null
          client_ip?: string | null
          id?: never
          target_id?: string | null
          target_table: string
        }
        Update: {
          action?: string
          actor_email?: string | null
          actor_id?: string | null
          after?: Json | null
          at?: string
          before?: Json | null
          client_ip?: string | null
          id?: never
          target_id?: string | null
          target_table?: string
        }
        Relationships: []
      }
      agent_versions: {
        Row: {
          agent_id: string
          changed_at: string
          changed_by: string | null
          restored_from: number | null
          settings: Json
          version: number
          workspace_id: string
        }
        Insert: {
          agent_id: string
          changed_at?: string
          changed_by?: string | null
          restored_from?: number | null
          settings: Json
          version: number
          workspace_id: string
        }
        Update: {
          agent_id?: string
          changed_at?: string
          changed_by?: string | null
          restored_from?: number | null
          settings?: Json
          version?: number
          workspace_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "agent_versions_agent_id_fkey"
            columns: ["agent_id"]
            isOneToOne: false
            referencedRelation: "agents"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "agent_versions_changed_by_fkey"
            columns: ["changed_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "agent_versions_workspace_id_fkey"
            columns: ["workspace_id"]
            isOneToOne: false
            referencedRelation: "workspaces"
            referencedColumns: ["id"]
          },
        ]
      }
      agents: {
        Row: {
          after_hours: string
          after_hours_forward_to: string | null
          business_hours: Json
          created_at: string
          escalation_email: string | null
          escalation_phone: string | null
          escalation_triggers: string[]
          greeting: string
          id: string
          languages: string[]
          name: string
          updated_at: string
          updated_by: string | null
          version: number
          voice: string
          workspace_id: string
        }
        Insert: {
          after_hours?: string
          after_hours_forward_to?: string | null
          business_hours?: Json
          created_at?: string
          escalation_email?: string | null
          escalation_phone?: string | null
          escalation_triggers?: string[]
          greeting?: string
          id?: string
          languages?: string[]
          name: string
          updated_at?: string
          updated_by?: string | null
          version?: number
          voice?: string
          workspace_id: string
        }
        Update: {
          after_hours?: string
          after_hours_forward_to?: string | null
          business_hours?: Json
          created_at?: string
          escalation_email?: string | null
          escalation_phone?: string | null
          escalation_triggers?: string[]
          greeting?: string
          id?: string
          languages?: string[]
          name?: string
          updated_at?: string
          updated_by?: string | null
          version?: number
          voice?: string
          workspace_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "agents_updated_by_fkey"
            columns: ["updated_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "agents_workspace_id_fkey"
            columns: ["workspace_id"]
            isOneToOne: false
            referencedRelation: "workspaces"
            referencedColumns: ["id"]
          },
        ]
      }
      availability_rules: {
        Row: {
          created_at: string
          end_time: string
          id: string
          start_time: string
          weekday: number
        }
        Insert: {
          created_at?: string
          end_time: string
          id?: string
          start_time: string
          weekday: number
        }
        Update: {
          created_at?: string
          end_time?: string
          id?: string
          start_time?: string
          weekday?: number
        }
        Relationships: []
      }
      blackout_dates: {
        Row: {
          created_at: string
          day: string
          reason: string | null
        }
        Insert: {
          created_at?: string
          day: string
          reason?: string | null
        }
        Update: {
          created_at?: string
          day?: string
          reason?: string | null
        }
        Relationships: []
      }
      calls: {
        Row: {
          agent_id: string | null
          created_at: string
          direction: string
          duration_seconds: number
          extracted: Json
          from_number: string
          id: string
          is_sample: boolean
          outcome: string
          phone_number_id: string | null
          provider_call_id: string
          recording_path: string | null
          search: unknown
          sentiment: string | null
          started_at: string
          summary: string | null
          to_number: string
          transcript: Json
          workspace_id: string
        }
        Insert: {
          agent_id?: string | null
          created_at?: string
          direction: string
          duration_seconds: number
          extracted?: Json
          from_number: string
          id?: string
          is_sample?: boolean
          outcome: string
          phone_number_id?: string | null
          provider_call_id: string
          recording_path?: string | null
          search?: unknown
          sentiment?: string | null
          started_at: string
          summary?: string | null
          to_number: string
          transcript?: Json
          workspace_id: string
        }
        Update: {
          agent_id?: string | null
          created_at?: string
          direction?: string
          duration_seconds?: number
          extracted?: Json
          from_number?: string
          id?: string
          is_sample?: boolean
          outcome?: string
          phone_number_id?: string | null
          provider_call_id?: string
          recording_path?: string | null
          search?: unknown
          sentiment?: string | null
          started_at?: string
          summary?: string | null
          to_number?: string
          transcript?: Json
          workspace_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "calls_agent_id_fkey"
            columns: ["agent_id"]
            isOneToOne: false
            referencedRelation: "agents"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "calls_phone_number_id_fkey"
            columns: ["phone_number_id"]
            isOneToOne: false
            referencedRelation: "phone_numbers"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "calls_workspace_id_fkey"
            columns: ["workspace_id"]
            isOneToOne: false
            referencedRelation: "workspaces"
            referencedColumns: ["id"]
          },
        ]
      }
      commissions: {
        Row: {
          amount_cents: number
          approved_at: string | null
          approved_by: string | null
          company: string
          created_at: string
          currency: string
          deal_value_cents: number
          decline_reason: string | null
          declined_at: string | null
          declined_by: string | null
          id: string
          lead_id: string
          paid_at: string | null
          partner_id: string
          payout_id: string | null
          period: string
          rate: number
          status: string
          tier: string
          updated_at: string
          version: number
          won_at: string
        }
        Insert: {
          amount_cents: number
          approved_at?: string | null
          approved_by?: string | null
          company: string
          created_at?: string
          currency: string
          deal_value_cents: number
          decline_reason?: string | null
          declined_at?: string | null
          declined_by?: string | null
          id?: string
          lead_id: string
          paid_at?: string | null
          partner_id: string
          payout_id?: string | null
          period?: string
          rate: number
          status?: string
          tier: string
          updated_at?: string
          version?: number
          won_at?: string
        }
        Update: {
          amount_cents?: number
          approved_at?: string | null
          approved_by?: string | null
          company?: string
          created_at?: string
          currency?: string
          deal_value_cents?: number
          decline_reason?: string | null
          declined_at?: string | null
          declined_by?: string | null
          id?: string
          lead_id?: string
          paid_at?: string | null
          partner_id?: string
          payout_id?: string | null
          period?: string
          rate?: number
          status?: string
          tier?: string
          updated_at?: string
          version?: number
          won_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "commissions_lead_id_fkey"
            columns: ["lead_id"]
            isOneToOne: false
            referencedRelation: "leads"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "commissions_partner_id_fkey"
            columns: ["partner_id"]
            isOneToOne: false
            referencedRelation: "partners"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "commissions_payout_id_fkey"
            columns: ["payout_id"]
            isOneToOne: false
            referencedRelation: "payouts"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "commissions_tier_fkey"
            columns: ["tier"]
            isOneToOne: false
            referencedRelation: "partner_tiers"
            referencedColumns: ["tier"]
          },
        ]
      }
      deal_registrations: {
        Row: {
          company: string
          company_key: string
          contact_email: string
          contact_name: string
          created_at: string
          decided_at: string | null
          decided_by: string | null
          decision_reason: string | null
          email_domain: string | null
          id: string
          lead_id: string | null
          monthly_call_volume: string
          notes: string | null
          partner_id: string
          status: string
          team_size: string
          updated_at: string
          version: number
        }
        Insert: {
          company: string
          company_key: string
          contact_email: string
          contact_name: string
          created_at?: string
          decided_at?: string | null
          decided_by?: string | null
          decision_reason?: string | null
          email_domain?: string | null
          id?: string
          lead_id?: string | null
          monthly_call_volume: string
          notes?: string | null
          partner_id: string
          status?: string
          team_size: string
          updated_at?: string
          version?: number
        }
        Update: {
          company?: string
          company_key?: string
          contact_email?: string
          contact_name?: string
          created_at?: string
          decided_at?: string | null
          decided_by?: string | null
          decision_reason?: string | null
          email_domain?: string | null
          id?: string
          lead_id?: string | null
          monthly_call_volume?: string
          notes?: string | null
          partner_id?: string
          status?: string
          team_size?: string
          updated_at?: string
          version?: number
        }
        Relationships: [
          {
            foreignKeyName: "deal_registrations_lead_id_fkey"
            columns: ["lead_id"]
            isOneToOne: false
            referencedRelation: "leads"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "deal_registrations_partner_id_fkey"
            columns: ["partner_id"]
            isOneToOne: false
            referencedRelation: "partners"
            referencedColumns: ["id"]
          },
        ]
      }
      demo_bookings: {
        Row: {
          cancel_reason: string | null
          cancelled_at: string | null
          company: string
          created_at: string
          email: string
          ends_at: string
          full_name: string
          id: string
          manage_token_hash: string
          notes: string | null
          partner_id: string | null
          revision: number
          starts_at: string
          status: string
          team_size: string
          time_zone: string
          updated_at: string
          user_id: string | null
          version: number
        }
        Insert: {
          cancel_reason?: string | null
          cancelled_at?: string | null
          company: string
          created_at?: string
          email: string
          ends_at: string
          full_name: string
          id?: string
          manage_token_hash: string
          notes?: string | null
          partner_id?: string | null
          revision?: number
          starts_at: string
          status?: string
          team_size: string
          time_zone: string
          updated_at?: string
          user_id?: string | null
          version?: number
        }
        Update: {
          cancel_reason?: string | null
          cancelled_at?: string | null
          company?: string
          created_at?: string
          email?: string
          ends_at?: string
          full_name?: string
          id?: string
          manage_token_hash?: string
          notes?: string | null
          partner_id?: string | null
          revision?: number
          starts_at?: string
          status?: string
          team_size?: string
          time_zone?: string
          updated_at?: string
          user_id?: string | null
          version?: number
        }
        Relationships: [
          {
            foreignKeyName: "demo_bookings_partner_id_fkey"
            columns: ["partner_id"]
            isOneToOne: false
            referencedRelation: "partners"
            referencedColumns: ["id"]
          },
        ]
      }
      lead_notes: {
        Row: {
          author_id: string | null
          body: string
          created_at: string
          id: string
          lead_id: string
        }
        Insert: {
          author_id?: string | null
          body: string
          created_at?: string
          id?: string
          lead_id: string
        }
        Update: {
          author_id?: string | null
          body?: string
          created_at?: string
          id?: string
          lead_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "lead_notes_author_id_fkey"
            columns: ["author_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "lead_notes_lead_id_fkey"
            columns: ["lead_id"]
            isOneToOne: false
            referencedRelation: "leads"
            referencedColumns: ["id"]
          },
        ]
      }
      leads: {
        Row: {
          company: string
          consent_at: string
          created_at: string
          currency: string
          deal_value_cents: number | null
          email: string
          full_name: string
          id: string
          job_role: string | null
          message: string | null
          monthly_call_volume: string
          notes: string | null
          owner_id: string | null
          partner_id: string | null
          source: string
          status: string
          status_changed_at: string | null
          team_size: string
          tools: string[]
          updated_at: string
          user_id: string | null
          version: number
        }
        Insert: {
          company: string
          consent_at: string
          created_at?: string
          currency?: string
          deal_value_cents?: number | null
          email: string
          full_name: string
          id?: string
          job_role?: string | null
          message?: string | null
          monthly_call_volume: string
          notes?: string | null
          owner_id?: string | null
          partner_id?: string | null
          source?: string
          status?: string
          status_changed_at?: string | null
          team_size: string
          tools?: string[]
          updated_at?: string
          user_id?: string | null
          version?: number
        }
        Update: {
          company?: string
          consent_at?: string
          created_at?: string
          currency?: string
          deal_value_cents?: number | null
          email?: string
          full_name?: string
          id?: string
          job_role?: string | null
          message?: string | null
          monthly_call_volume?: string
          notes?: string | null
          owner_id?: string | null
          partner_id?: string | null
          source?: string
          status?: string
          status_changed_at?: string | null
          team_size?: string
          tools?: string[]
          updated_at?: string
          user_id?: string | null
          version?: number
        }
        Relationships: [
          {
            foreignKeyName: "leads_owner_id_fkey"
            columns: ["owner_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "leads_partner_id_fkey"
            columns: ["partner_id"]
            isOneToOne: false
            referencedRelation: "partners"
            referencedColumns: ["id"]
          },
        ]
      }
      outbox_messages: {
        Row: {
          attachments: Json
          attempts: number
          body_html: string | null
          body_text: string
          channel: string
          created_at: string
          id: string
          last_error: string | null
          metadata: Json
          next_attempt_at: string
          recipient: string
          sent_at: string | null
          status: string
          subject: string | null
          template: string
        }
        Insert: {
          attachments?: Json
          attempts?: number
          body_html?: string | null
          body_text: string
          channel: string
          created_at?: string
          id?: string
          last_error?: string | null
          metadata?: Json
          next_attempt_at?: string
          recipient: string
          sent_at?: string | null
          status?: string
          subject?: string | null
          template: string
        }
        Update: {
          attachments?: Json
          attempts?: number
          body_html?: string | null
          body_text?: string
          channel?: string
          created_at?: string
          id?: string
          last_error?: string | null
          metadata?: Json
          next_attempt_at?: string
          recipient?: string
          sent_at?: string | null
          status?: string
          subject?: string | null
          template?: string
        }
        Relationships: []
      }
      partner_applications: {
        Row: {
          company: string
          confirm_expires_at: string | null
          confirm_token_hash: string | null
          confirmed_at: string | null
          created_at: string
          decision_reason: string | null
          email: string
          expected_referrals: number
          full_name: string
          id: string
          message: string | null
          partner_id: string | null
          partner_type: string
          referred_by: string | null
          reviewed_at: string | null
          reviewed_by: string | null
          status: string
          updated_at: string
          user_id: string | null
          website: string | null
        }
        Insert: {
          company: string
          confirm_expires_at?: string | null
          confirm_token_hash?: string | null
          confirmed_at?: string | null
          created_at?: string
          decision_reason?: string | null
          email: string
          expected_referrals: number
          full_name: string
          id?: string
          message?: string | null
          partner_id?: string | null
          partner_type: string
          referred_by?: string | null
          reviewed_at?: string | null
          reviewed_by?: string | null
          status?: string
          updated_at?: string
          user_id?: string | null
          website?: string | null
        }
        Update: {
          company?: string
          confirm_expires_at?: string | null
          confirm_token_hash?: string | null
          confirmed_at?: string | null
          created_at?: string
          decision_reason?: string | null
          email?: string
          expected_referrals?: number
          full_name?: string
          id?: string
          message?: string | null
          partner_id?: string | null
          partner_type?: string
          referred_by?: string | null
          reviewed_at?: string | null
          reviewed_by?: string | null
          status?: string
          updated_at?: string
          user_id?: string | null
          website?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "partner_applications_partner_id_fkey"
            columns: ["partner_id"]
            isOneToOne: false
            referencedRelation: "partners"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "partner_applications_referred_by_fkey"
            columns: ["referred_by"]
            isOneToOne: false
            referencedRelation: "partners"
            referencedColumns: ["id"]
          },
        ]
      }
      partner_tiers: {
        Row: {
          min_revenue_cents: number | null
          min_won_deals: number
          name: string
          rank: number
          rate: number
          summary: string
          tier: string
        }
        Insert: {
          min_revenue_cents?: number | null
          min_won_deals: number
          name: string
          rank: number
          rate: number
          summary: string
          tier: string
        }
        Update: {
          min_revenue_cents?: number | null
          min_won_deals?: number
          name?: string
          rank?: number
          rate?: number
          summary?: string
          tier?: string
        }
        Relationships: []
      }
      partners: {
        Row: {
          commission_rate: number
          company: string
          created_at: string
          id: string
          referral_code: string
          status: string
          tier: string
          updated_at: string
          user_id: string | null
          version: number
        }
        Insert: {
          commission_rate?: number
          company: string
          created_at?: string
          id?: string
          referral_code: string
          status?: string
          tier?: string
          updated_at?: string
          user_id?: string | null
          version?: number
        }
        Update: {
          commission_rate?: number
          company?: string
          created_at?: string
          id?: string
          referral_code?: string
          status?: string
          tier?: string
          updated_at?: string
          user_id?: string | null
          version?: number
        }
        Relationships: [
          {
            foreignKeyName: "partners_tier_fkey"
            columns: ["tier"]
            isOneToOne: false
            referencedRelation: "partner_tiers"
            referencedColumns: ["tier"]
          },
        ]
      }
      payouts: {
        Row: {
          amount_cents: number
          commission_count: number
          created_at: string
          created_by: string | null
          currency: string
          id: string
          paid_at: string | null
          paid_by: string | null
          paid_on: string | null
          partner_id: string
          reference: string | null
          status: string
          updated_at: string
          version: number
        }
        Insert: {
          amount_cents: number
          commission_count: number
          created_at?: string
          created_by?: string | null
          currency: string
          id?: string
          paid_at?: string | null
          paid_by?: string | null
          paid_on?: string | null
          partner_id: string
          reference?: string | null
          status?: string
          updated_at?: string
          version?: number
        }
        Update: {
          amount_cents?: number
          commission_count?: number
          created_at?: string
          created_by?: string | null
          currency?: string
          id?: string
          paid_at?: string | null
          paid_by?: string | null
          paid_on?: string | null
          partner_id?: string
          reference?: string | null
          status?: string
          updated_at?: string
          version?: number
        }
        Relationships: [
          {
            foreignKeyName: "payouts_partner_id_fkey"
            columns: ["partner_id"]
            isOneToOne: false
            referencedRelation: "partners"
            referencedColumns: ["id"]
          },
        ]
      }
      phone_numbers: {
        Row: {
          agent_id: string | null
          created_at: string
          e164: string
          id: string
          label: string | null
          updated_at: string
          workspace_id: string
        }
        Insert: {
          agent_id?: string | null
          created_at?: string
          e164: string
          id?: string
          label?: string | null
          updated_at?: string
          workspace_id: string
        }
        Update: {
          agent_id?: string | null
          created_at?: string
          e164?: string
          id?: string
          label?: string | null
          updated_at?: string
          workspace_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "phone_numbers_agent_id_fkey"
            columns: ["agent_id"]
            isOneToOne: false
            referencedRelation: "agents"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "phone_numbers_workspace_id_fkey"
            columns: ["workspace_id"]
            isOneToOne: false
            referencedRelation: "workspaces"
            referencedColumns: ["id"]
          },
        ]
      }
      profiles: {
        Row: {
          company: string | null
          created_at: string
          full_name: string | null
          id: string
          referred_by: string | null
          updated_at: string
        }
        Insert: {
          company?: string | null
          created_at?: string
          full_name?: string | null
          id: string
          referred_by?: string | null
          updated_at?: string
        }
        Update: {
          company?: string | null
          created_at?: string
          full_name?: string | null
          id?: string
          referred_by?: string | null
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "profiles_referred_by_fkey"
            columns: ["referred_by"]
            isOneToOne: false
            referencedRelation: "partners"
            referencedColumns: ["id"]
          },
        ]
      }
      referral_clicks: {
        Row: {
          clicks: number
          day: string
          partner_id: string
        }
        Insert: {
          clicks?: number
          day: string
          partner_id: string
        }
        Update: {
          clicks?: number
          day?: string
          partner_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "referral_clicks_partner_id_fkey"
            columns: ["partner_id"]
            isOneToOne: false
            referencedRelation: "partners"
            referencedColumns: ["id"]
          },
        ]
      }
      scheduler_settings: {
        Row: {
          buffer_minutes: number
          horizon_days: number
          id: boolean
          meeting_url: string | null
          min_notice_minutes: number
          slot_minutes: number
          time_zone: string
          updated_at: string
        }
        Insert: {
          buffer_minutes?: number
          horizon_days?: number
          id?: boolean
          meeting_url?: string | null
          min_notice_minutes?: number
          slot_minutes?: number
          time_zone?: string
          updated_at?: string
        }
        Update: {
          buffer_minutes?: number
          horizon_days?: number
          id?: boolean
          meeting_url?: string | null
          min_notice_minutes?: number
          slot_minutes?: number
          time_zone?: string
          updated_at?: string
        }
        Relationships: []
      }
      site_settings: {
        Row: {
          demo_bookings_per_domain: number
          demo_bookings_per_network: number
          demo_changes_per_network_per_hour: number
          demo_reschedules_per_booking: number
          demo_reschedules_per_booking_per_day: number
          id: boolean
          sales_inbox: string
          site_url: string
          submissions_per_email_per_hour: number
          submissions_per_form_per_hour: number
          submissions_per_ip_per_hour: number
          updated_at: string
        }
        Insert: {
          demo_bookings_per_domain?: number
          demo_bookings_per_network?: number
          demo_changes_per_network_per_hour?: number
          demo_reschedules_per_booking?: number
          demo_reschedules_per_booking_per_day?: number
          id?: boolean
          sales_inbox?: string
          site_url?: string
          submissions_per_email_per_hour?: number
          submissions_per_form_per_hour?: number
          submissions_per_ip_per_hour?: number
          updated_at?: string
        }
        Update: {
          demo_bookings_per_domain?: number
          demo_bookings_per_network?: number
          demo_changes_per_network_per_hour?: number
          demo_reschedules_per_booking?: number
          demo_reschedules_per_booking_per_day?: number
          id?: boolean
          sales_inbox?: string
          site_url?: string
          submissions_per_email_per_hour?: number
          submissions_per_form_per_hour?: number
          submissions_per_ip_per_hour?: number
          updated_at?: string
        }
        Relationships: []
      }
      workspace_invitations: {
        Row: {
          accepted_at: string | null
          accepted_by: string | null
          created_at: string
          declined_at: string | null
          email: string
          expires_at: string
          id: string
          invited_by: string | null
          last_sent_at: string
          revoked_at: string | null
          revoked_by: string | null
          role: string
          workspace_id: string
        }
        Insert: {
          accepted_at?: string | null
          accepted_by?: string | null
          created_at?: string
          declined_at?: string | null
          email: string
          expires_at?: string
          id?: string
          invited_by?: string | null
          last_sent_at?: string
          revoked_at?: string | null
          revoked_by?: string | null
          role: string
          workspace_id: string
        }
        Update: {
          accepted_at?: string | null
          accepted_by?: string | null
          created_at?: string
          declined_at?: string | null
          email?: string
          expires_at?: string
          id?: string
          invited_by?: string | null
          last_sent_at?: string
          revoked_at?: string | null
          revoked_by?: string | null
          role?: string
          workspace_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "workspace_invitations_invited_by_fkey"
            columns: ["invited_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "workspace_invitations_workspace_id_fkey"
            columns: ["workspace_id"]
            isOneToOne: false
            referencedRelation: "workspaces"
            referencedColumns: ["id"]
          },
        ]
      }
      workspace_members: {
        Row: {
          created_at: string
          role: string
          updated_at: string
          user_id: string
          workspace_id: string
        }
        Insert: {
          created_at?: string
          role?: string
          updated_at?: string
          user_id: string
          workspace_id: string
        }
        Update: {
          created_at?: string
          role?: string
          updated_at?: string
          user_id?: string
          workspace_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "workspace_members_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "workspace_members_workspace_id_fkey"
            columns: ["workspace_id"]
            isOneToOne: false
            referencedRelation: "workspaces"
            referencedColumns: ["id"]
          },
        ]
      }
      workspaces: {
        Row: {
          created_at: string
          created_by: string | null
          id: string
          name: string
          time_zone: string
          updated_at: string
        }
        Insert: {
          created_at?: string
          created_by?: string | null
          id?: string
          name: string
          time_zone?: string
          updated_at?: string
        }
        Update: {
          created_at?: string
          created_by?: string | null
          id?: string
          name?: string
          time_zone?: string
          updated_at?: string
        }
        Relationships: []
      }
    }
    Views: {
      [_ in never]: never
    }
    Functions: {
      accept_deal_registration: {
        Args: { p_registration_id: string }
        Returns: {
          company: string
          company_key: string
          contact_email: string
          contact_name: string
          created_at: string
          decided_at: string | null
          decided_by: string | null
          decision_reason: string | null
          email_domain: string | null
          id: string
          lead_id: string | null
          monthly_call_volume: string
          notes: string | null
          partner_id: string
          status: string
          team_size: string
          updated_at: string
          version: number
        }
        SetofOptions: {
          from: "*"
          to: "deal_registrations"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      accept_workspace_invitation: {
        Args: { p_invitation_id: string }
        Returns: Json
      }
      add_lead_note: {
        Args: { p_body: string; p_lead_id: string }
        Returns: {
          author_id: string | null
          body: string
          created_at: string
          id: string
          lead_id: string
        }
        SetofOptions: {
          from: "*"
          to: "lead_notes"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      add_phone_number: {
        Args: {
          p_agent_id: string
          p_e164: string
          p_label: string
          p_workspace_id: string
        }
        Returns: {
          agent_id: string | null
          created_at: string
          e164: string
          id: string
          label: string | null
          updated_at: string
          workspace_id: string
        }
        SetofOptions: {
          from: "*"
          to: "phone_numbers"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      admin_add_blackout_date: {
        Args: { p_day: string; p_reason?: string }
        Returns: Json
      }
      admin_ban_user: {
        Args: { p_hours?: number; p_user_id: string }
        Returns: Json
      }
      admin_cancel_booking: {
        Args: {
          p_booking_id: string
          p_expected_version: number
          p_reason: string
        }
        Returns: Json
      }
      admin_commissions: {
        Args: {
          p_before_created_at?: string
          p_before_id?: string
          p_limit?: number
          p_partner_id?: string
          p_status?: string
        }
        Returns: Json
      }
      admin_deal_registrations: {
        Args: {
          p_before_created_at?: string
          p_before_id?: string
          p_limit?: number
          p_status?: string
        }
        Returns: Json
      }
      admin_delete_user: { Args: { p_user_id: string }; Returns: Json }
      admin_demo_slots: {
        Args: { p_booking_id: string; p_from?: string; p_to?: string }
        Returns: {
          ends_at: string
          starts_at: string
        }[]
      }
      admin_email_templates: { Args: never; Returns: Json }
      admin_failed_email_count: { Args: never; Returns: number }
      admin_get_email: { Args: { p_message_id: string }; Returns: Json }
      admin_get_user: { Args: { p_user_id: string }; Returns: Json }
      admin_lead_from_booking: {
        Args: { p_booking_id: string; p_monthly_call_volume: string }
        Returns: {
          company: string
          consent_at: string
          created_at: string
          currency: string
          deal_value_cents: number | null
          email: string
          full_name: string
          id: string
          job_role: string | null
          message: string | null
          monthly_call_volume: string
          notes: string | null
          owner_id: string | null
          partner_id: string | null
          source: string
          status: string
          status_changed_at: string | null
          team_size: string
          tools: string[]
          updated_at: string
          user_id: string | null
          version: number
        }
        SetofOptions: {
          from: "*"
          to: "leads"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      admin_list_admins: {
        Args: never
        Returns: {
          email: string
          full_name: string
          id: string
        }[]
      }
      admin_list_emails: {
        Args: {
          p_after_created_at?: string
          p_after_id?: string
          p_channel?: string
          p_limit?: number
          p_recipient?: string
          p_status?: string
          p_template?: string
        }
        Returns: {
          attempts: number
          channel: string
          created_at: string
          id: string
          is_secret: boolean
          last_error: string
          next_attempt_at: string
          recipient: string
          resent_from: string
          sent_at: string
          status: string
          subject: string
          template: string
        }[]
      }
      admin_list_users: {
        Args: {
          p_after_created_at?: string
          p_after_id?: string
          p_limit?: number
          p_role?: string
          p_search?: string
        }
        Returns: {
          banned_until: string
          company: string
          created_at: string
          email: string
          email_confirmed_at: string
          full_name: string
          id: string
          invited_at: string
          last_sign_in_at: string
          role: string
        }[]
      }
      admin_overview: { Args: { p_from: string; p_to: string }; Returns: Json }
      admin_partner_applications: {
        Args: {
          p_before_created_at?: string
          p_before_id?: string
          p_limit?: number
          p_status?: string
        }
        Returns: Json
      }
      admin_partners: {
        Args: {
          p_before_created_at?: string
          p_before_id?: string
          p_limit?: number
          p_search?: string
          p_status?: string
        }
        Returns: Json
      }
      admin_payable_balances: {
        Args: never
        Returns: {
          amount_cents: number
          commission_count: number
          company: string
          currency: string
          email: string
          oldest_approved_at: string
          partner_id: string
          referral_code: string
        }[]
      }
      admin_payouts: {
        Args: {
          p_before_created_at?: string
          p_before_id?: string
          p_limit?: number
          p_status?: string
        }
        Returns: Json
      }
      admin_record_user_email: {
        Args: { p_action: string; p_user_id: string }
        Returns: undefined
      }
      admin_remove_blackout_date: {
        Args: { p_day: string }
        Returns: undefined
      }
      admin_reschedule_booking: {
        Args: {
          p_booking_id: string
          p_expected_version: number
          p_reason?: string
          p_starts_at: string
        }
        Returns: Json
      }
      admin_save_availability: {
        Args: { p_rules: Json }
        Returns: {
          created_at: string
          end_time: string
          id: string
          start_time: string
          weekday: number
        }[]
        SetofOptions: {
          from: "*"
          to: "availability_rules"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      admin_set_user_role: {
        Args: { p_role: string; p_user_id: string }
        Returns: Json
      }
      admin_unban_user: { Args: { p_user_id: string }; Returns: Json }
      admin_update_scheduler_settings: {
        Args: { p_changes: Json; p_expected_updated_at: string }
        Returns: {
          buffer_minutes: number
          horizon_days: number
          id: boolean
          meeting_url: string | null
          min_notice_minutes: number
          slot_minutes: number
          time_zone: string
          updated_at: string
        }
        SetofOptions: {
          from: "*"
          to: "scheduler_settings"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      admin_user_email_target: {
        Args: { p_action: string; p_email?: string; p_user_id?: string }
        Returns: string
      }
      approve_commission: {
        Args: { p_commission_id: string; p_expected_version?: number }
        Returns: {
          amount_cents: number
          approved_at: string | null
          approved_by: string | null
          company: string
          created_at: string
          currency: string
          deal_value_cents: number
          decline_reason: string | null
          declined_at: string | null
          declined_by: string | null
          id: string
          lead_id: string
          paid_at: string | null
          partner_id: string
          payout_id: string | null
          period: string
          rate: number
          status: string
          tier: string
          updated_at: string
          version: number
          won_at: string
        }
        SetofOptions: {
          from: "*"
          to: "commissions"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      approve_partner_application: {
        Args: { p_application_id: string }
        Returns: Json
      }
      book_demo: {
        Args: {
          company: string
          email: string
          fax?: string
          full_name: string
          notes?: string
          referral_code?: string
          starts_at: string
          team_size: string
          time_zone: string
        }
        Returns: Json
      }
      call_filters: {
        Args: {
          p_filters: Json
          p_from: string
          p_max_days: number
          p_to: string
          p_workspace_id: string
        }
        Returns: Record<string, unknown>
      }
      call_kpis: {
        Args: {
          p_filters?: Json
          p_from: string
          p_to: string
          p_workspace_id: string
        }
        Returns: Json
      }
      call_trends: {
        Args: {
          p_filters?: Json
          p_from: string
          p_time_zone?: string
          p_to: string
          p_workspace_id: string
        }
        Returns: {
          day: string
          escalated: number
          missed: number
          resolved: number
          voicemail: number
        }[]
      }
      cancel_demo_booking: {
        Args: { reason?: string; token: string }
        Returns: Json
      }
      cancel_payout: {
        Args: { p_expected_version?: number; p_payout_id: string }
        Returns: undefined
      }
      clear_sample_calls: { Args: { p_workspace_id: string }; Returns: number }
      confirm_partner_application: { Args: { token: string }; Returns: Json }
      create_payout: {
        Args: { p_currency: string; p_partner_id: string }
        Returns: {
          amount_cents: number
          commission_count: number
          created_at: string
          created_by: string | null
          currency: string
          id: string
          paid_at: string | null
          paid_by: string | null
          paid_on: string | null
          partner_id: string
          reference: string | null
          status: string
          updated_at: string
          version: number
        }
        SetofOptions: {
          from: "*"
          to: "payouts"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      current_partner_id: { Args: never; Returns: string }
      decline_commission: {
        Args: {
          p_commission_id: string
          p_expected_version?: number
          p_reason: string
        }
        Returns: {
          amount_cents: number
          approved_at: string | null
          approved_by: string | null
          company: string
          created_at: string
          currency: string
          deal_value_cents: number
          decline_reason: string | null
          declined_at: string | null
          declined_by: string | null
          id: string
          lead_id: string
          paid_at: string | null
          partner_id: string
          payout_id: string | null
          period: string
          rate: number
          status: string
          tier: string
          updated_at: string
          version: number
          won_at: string
        }
        SetofOptions: {
          from: "*"
          to: "commissions"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      decline_workspace_invitation: {
        Args: { p_invitation_id: string }
        Returns: undefined
      }
      filtered_calls: {
        Args: {
          p_filters?: Json
          p_from: string
          p_to: string
          p_workspace_id: string
        }
        Returns: {
          agent_id: string | null
          created_at: string
          direction: string
          duration_seconds: number
          extracted: Json
          from_number: string
          id: string
          is_sample: boolean
          outcome: string
          phone_number_id: string | null
          provider_call_id: string
          recording_path: string | null
          search: unknown
          sentiment: string | null
          started_at: string
          summary: string | null
          to_number: string
          transcript: Json
          workspace_id: string
        }[]
        SetofOptions: {
          from: "*"
          to: "calls"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      get_demo_booking: { Args: { token: string }; Returns: Json }
      get_demo_scheduler: { Args: never; Returns: Json }
      get_demo_slots: {
        Args: { range_end?: string; range_start?: string }
        Returns: {
          ends_at: string
          starts_at: string
        }[]
      }
      ingest_call: {
        Args: {
          p_body: string
          p_signature: string
          p_timestamp: string
          p_workspace_id: string
        }
        Returns: Json
      }
      ingestion_status: { Args: { p_workspace_id: string }; Returns: Json }
      invite_to_workspace: {
        Args: { p_email: string; p_role: string; p_workspace_id: string }
        Returns: Json
      }
      is_admin: { Args: never; Returns: boolean }
      is_partner: { Args: never; Returns: boolean }
      is_workspace_member: { Args: { workspace_id: string }; Returns: boolean }
      mark_payout_paid: {
        Args: {
          p_expected_version?: number
          p_paid_on: string
          p_payout_id: string
          p_reference: string
        }
        Returns: {
          amount_cents: number
          commission_count: number
          created_at: string
          created_by: string | null
          currency: string
          id: string
          paid_at: string | null
          paid_by: string | null
          paid_on: string | null
          partner_id: string
          reference: string | null
          status: string
          updated_at: string
          version: number
        }
        SetofOptions: {
          from: "*"
          to: "payouts"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      mfa_satisfied: { Args: never; Returns: boolean }
      my_verified_email: { Args: never; Returns: string }
      my_workspace_ids: { Args: never; Returns: string[] }
      my_workspace_invitations: {
        Args: never
        Returns: {
          expires_at: string
          id: string
          invited_by_name: string
          role: string
          workspace_id: string
          workspace_name: string
        }[]
      }
      partner_referrals: {
        Args: {
          p_before?: string
          p_before_id?: string
          p_kind?: string
          p_limit?: number
        }
        Returns: {
          commission_status: string
          company: string
          contact_email: string
          contact_name: string
          created_at: string
          id: string
          kind: string
          starts_at: string
          status: string
        }[]
      }
      partner_summary: { Args: { p_from: string; p_to: string }; Returns: Json }
      queue_workspace_invitation_email: {
        Args: { p_invitation_id: string }
        Returns: string
      }
      record_referral_click: { Args: { code: string }; Returns: boolean }
      referral_partner: { Args: { code: string }; Returns: Json }
      register_deal: {
        Args: {
          company: string
          contact_email: string
          contact_name: string
          monthly_call_volume: string
          notes?: string
          team_size: string
        }
        Returns: {
          company: string
          company_key: string
          contact_email: string
          contact_name: string
          created_at: string
          decided_at: string | null
          decided_by: string | null
          decision_reason: string | null
          email_domain: string | null
          id: string
          lead_id: string | null
          monthly_call_volume: string
          notes: string | null
          partner_id: string
          status: string
          team_size: string
          updated_at: string
          version: number
        }
        SetofOptions: {
          from: "*"
          to: "deal_registrations"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      reject_deal_registration: {
        Args: { p_reason: string; p_registration_id: string }
        Returns: {
          company: string
          company_key: string
          contact_email: string
          contact_name: string
          created_at: string
          decided_at: string | null
          decided_by: string | null
          decision_reason: string | null
          email_domain: string | null
          id: string
          lead_id: string | null
          monthly_call_volume: string
          notes: string | null
          partner_id: string
          status: string
          team_size: string
          updated_at: string
          version: number
        }
        SetofOptions: {
          from: "*"
          to: "deal_registrations"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      reject_partner_application: {
        Args: { p_application_id: string; p_reason: string }
        Returns: Json
      }
      remove_phone_number: { Args: { p_id: string }; Returns: undefined }
      reschedule_demo_booking: {
        Args: { starts_at: string; time_zone?: string; token: string }
        Returns: Json
      }
      resend_outbox_message: { Args: { p_message_id: string }; Returns: Json }
      resend_workspace_invitation: {
        Args: { p_invitation_id: string }
        Returns: Json
      }
      restore_agent_version: {
        Args: {
          p_agent_id: string
          p_expected_version: number
          p_version: number
        }
        Returns: Json
      }
      retry_outbox_message: { Args: { p_message_id: string }; Returns: Json }
      revoke_workspace_app: {
        Args: { p_client_id: string; p_user_id: string; p_workspace_id: string }
        Returns: undefined
      }
      revoke_workspace_invitation: {
        Args: { p_invitation_id: string }
        Returns: Json
      }
      rotate_ingestion_secret: {
        Args: { p_workspace_id: string }
        Returns: string
      }
      save_agent_settings: {
        Args: {
          p_agent_id: string
          p_expected_version: number
          p_settings: Json
        }
        Returns: Json
      }
      shares_workspace_with: { Args: { user_id: string }; Returns: boolean }
      submit_partner_application: {
        Args: {
          company: string
          email: string
          expected_referrals: number
          fax?: string
          full_name: string
          message?: string
          partner_type: string
          referral_code?: string
          website?: string
        }
        Returns: Json
      }
      submit_sales_inquiry: {
        Args: {
          company: string
          consent: boolean
          email: string
          fax?: string
          full_name: string
          job_role?: string
          message?: string
          monthly_call_volume: string
          referral_code?: string
          team_size: string
          tools?: string[]
        }
        Returns: Json
      }
      time_zone_names: { Args: never; Returns: string[] }
      update_lead: {
        Args: { p_changes: Json; p_expected_version: number; p_lead_id: string }
        Returns: {
          company: string
          consent_at: string
          created_at: string
          currency: string
          deal_value_cents: number | null
          email: string
          full_name: string
          id: string
          job_role: string | null
          message: string | null
          monthly_call_volume: string
          notes: string | null
          owner_id: string | null
          partner_id: string | null
          source: string
          status: string
          status_changed_at: string | null
          team_size: string
          tools: string[]
          updated_at: string
          user_id: string | null
          version: number
        }
        SetofOptions: {
          from: "*"
          to: "leads"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      update_partner: {
        Args: {
          p_changes: Json
          p_expected_version: number
          p_partner_id: string
        }
        Returns: {
          commission_rate: number
          company: string
          created_at: string
          id: string
          referral_code: string
          status: string
          tier: string
          updated_at: string
          user_id: string | null
          version: number
        }
        SetofOptions: {
          from: "*"
          to: "partners"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      update_phone_number: {
        Args: {
          p_agent_id: string
          p_e164: string
          p_id: string
          p_label: string
        }
        Returns: {
          agent_id: string | null
          created_at: string
          e164: string
          id: string
          label: string | null
          updated_at: string
          workspace_id: string
        }
        SetofOptions: {
          from: "*"
          to: "phone_numbers"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      update_workspace: {
        Args: { p_name: string; p_time_zone: string; p_workspace_id: string }
        Returns: {
          created_at: string
          created_by: string | null
          id: string
          name: string
          time_zone: string
          updated_at: string
        }
        SetofOptions: {
          from: "*"
          to: "workspaces"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      workspace_connected_apps: {
        Args: { p_workspace_id: string }
        Returns: {
          client_id: string
          client_name: string
          client_uri: string
          email: string
          full_name: string
          granted_at: string
          is_me: boolean
          scopes: string[]
          user_id: string
        }[]
      }
      workspace_role: { Args: { workspace_id: string }; Returns: string }
      workspace_sample_state: {
        Args: { p_workspace_id: string }
        Returns: Json
      }
      workspace_team: {
        Args: { p_workspace_id: string }
        Returns: {
          email: string
          full_name: string
          is_me: boolean
          joined_at: string
          role: string
          user_id: string
        }[]
      }
    }
    Enums: {
      [_ in never]: never
    }
    CompositeTypes: {
      [_ in never]: never
    }
  }
}

type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] &
        DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] &
        DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaNameOrOptions extends
    keyof DefaultSchema["Tables"] | { schema: keyof DatabaseWithoutInternals },
  Name extends (DefaultSchemaNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]]["Tables"][Name] extends {
      Insert: infer R
    }
    ? R
    : never
  : DefaultSchemaNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaNameOrOptions] extends {
        Insert: infer R
      }
      ? R
      : never
    : never

export type TablesUpdate<
  DefaultSchemaNameOrOptions extends
    keyof DefaultSchema["Tables"] | { schema: keyof DatabaseWithoutInternals },
  Name extends (DefaultSchemaNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]]["Tables"][Name] extends {
      Update: infer R
    }
    ? R
    : never
  : DefaultSchemaNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaNameOrOptions] extends {
        Update: infer R
      }
      ? R
      : never
    : never

export type Enums<
  DefaultSchemaNameOrOptions extends
    keyof DefaultSchema["Enums"] | { schema: keyof DatabaseWithoutInternals },
  Name extends (DefaultSchemaNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]]["Enums"]
    : never) = never,
> = DefaultSchemaNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]]["Enums"][Name]
  : DefaultSchemaNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaNameOrOptions]
    : never

export type CompositeTypes<
  DefaultSchemaNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  Name extends (DefaultSchemaNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]]["CompositeTypes"]
    : never) = never,
> = DefaultSchemaNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]]["CompositeTypes"][Name]
  : DefaultSchemaNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][DefaultSchemaNameOrOptions]
    : never

export const Constants = {
  public: {
    Enums: {},
  },
} as const
