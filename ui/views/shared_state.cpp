#include "ui/views/shared_state.h"

#include <utility>

namespace elab::ui {

void SharedState::publishUtilitySweep(UtilitySweepSnapshot sweep) {
    m_utilitySweep = std::move(sweep);
    emit utilitySweepChanged();
}

} // namespace elab::ui
