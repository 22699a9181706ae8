// The class groups a book belongs to (the public catalogue's list).
import type { ClassGroup } from '../../../../shared/schemas/catalog';
import { useAdminData } from '../ui/use-admin-data';

export const useClassGroups = () => useAdminData<ClassGroup[]>('/class-groups').data ?? [];
