import { reportOperation } from './context/reportRepository';
import { behaviorOperation } from './memory/behaviors';
import { statementOperation } from './memory/statementOps';
import { registerOperationKind, registeredKinds } from './store/operationRegistry';
import './store/operations';

/**
 * The composition of the core's domains over the store: every domain's operation kinds, registered before any
 * journal is replayed. The extension, the CLI, the snapshot worker and the tests call it first thing; calling it
 * again changes nothing.
 */
export function registerDomainOperations(): string[] {
  registerOperationKind(statementOperation);
  registerOperationKind(behaviorOperation);
  registerOperationKind(reportOperation);
  return registeredKinds();
}
