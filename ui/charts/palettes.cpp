#include "ui/charts/palettes.h"

namespace elab::ui::charts::palette {

std::vector<ColourSet> chartColourSets() {
    // One entry a line, the colours by name: scripts/cvd_check.py reads this list.
    return {
        {"series (Okabe-Ito)", {kBlue, kVermillion, kBluishGreen, kReddishPurple, kOrange, kSkyBlue, kBlack, kYellow}},
        {"regions, up to 8 classes",
         {kBlue, kVermillion, kBluishGreen, kReddishPurple, kOrange, kSkyBlue, kBlack, kYellow}},
        {"regions, 3 classes and misclassified", {kBlue, kVermillion, kBluishGreen, kMisclassified}},
        {"regions, 8 classes and misclassified",
         {kBlue, kVermillion, kBluishGreen, kReddishPurple, kOrange, kSkyBlue, kBlack, kYellow, kMisclassified}},
        {"regions, 9-10 classes (Tol muted) and misclassified",
         {0x332288, 0x88CCEE, 0x44AA99, 0x117733, 0x999933, 0xDDCC77, 0xCC6677, 0x882255, 0xAA4499, 0xDDDDDD,
          kMisclassified}},
        {"utility", {kBlue, kVermillion, kBlack, kReference, kReddishPurple, kMagenta, kDarkRed}},
        {"utility, compared mechanisms", {kBlue, kBluishGreen, kReddishPurple, kOrange, kSkyBlue, kBrown, kBlack}},
        {"utility, estimates", {kBlue, kBlack, kOrange, kBluishGreen, kSkyBlue, kYellow}},
        {"stability", {kDarkGrey, kBlue, kVermillion, kBluishGreen}},
        {"accounting", {kBlue, kVermillion, kBluishGreen, kReference, kBlack, kReddishPurple}},
        {"ptr", {kBlue, kVermillion, kReference, kBluishGreen}},
        {"audit histograms", {kAuditOut, kAuditIn, kBlack}},
        {"audit verdicts", {kViolated, kConsistent, kNeutral}},
        {"data, norm histogram", {kHistogramFill, kHistogramBorder, kHistogramMarker}},
    };
}

} // namespace elab::ui::charts::palette
