/**
 * Import previews held in the main process between "preview" and "commit", so the renderer pages
 * through a plan of thousands of files instead of receiving it whole. The few most recent are kept;
 * an older one is gone and must be previewed again.
 */
import { randomUUID } from 'node:crypto';
import type { ImportPlan } from '../../shared/study';

export interface PlanStore {
  put(plan: ImportPlan): string;
  get(planId: string): ImportPlan | null;
  drop(planId: string): boolean;
}

export const createPlanStore = (keep = 4): PlanStore => {
  const plans = new Map<string, ImportPlan>();
  return {
    put(plan) {
      const id = randomUUID();
      plans.set(id, plan);
      while (plans.size > keep) plans.delete(plans.keys().next().value!);
      return id;
    },
    get: (id) => plans.get(id) ?? null,
    drop: (id) => plans.delete(id),
  };
};
