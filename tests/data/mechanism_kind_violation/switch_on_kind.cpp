// A view that switches on a mechanism kind: the check must fail on it.
bool sgd(Kind k) { return k == core::MechanismKind::Dpsgd; }
