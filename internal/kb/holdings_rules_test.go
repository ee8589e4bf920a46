package kb

import "testing"

func TestCheckTitleSelection(t *testing.T) {
	for _, c := range []struct {
		typ         PackageType
		pkgSel, sel bool
		ok          bool
	}{
		{PackageComplete, false, true, false},
		{PackageComplete, true, false, false},
		{PackageComplete, true, true, true},
		{PackageComplete, false, false, true},
		{PackageSelectable, false, true, true},
		{PackageSelectable, true, false, true},
		{PackageCustom, false, true, true},
	} {
		err := CheckTitleSelection(1, c.typ, c.pkgSel, c.sel)
		if (err == nil) != c.ok {
			t.Errorf("CheckTitleSelection(%v, %v, %v) = %v", c.typ, c.pkgSel, c.sel, err)
		}
		if err != nil && ErrorCode(err) != CodeNotAllowed {
			t.Errorf("CheckTitleSelection(%v, %v, %v): code %v, want CodeNotAllowed", c.typ, c.pkgSel, c.sel, ErrorCode(err))
		}
	}
}

func TestCheckNewCustomTitle(t *testing.T) {
	for _, c := range []struct {
		custom bool
		name   string
		code   Code // 0: no error
	}{
		{true, "A title", 0},
		{false, "A title", CodeNotAllowed},
		{true, "  ", CodeMissing},
		{false, "", CodeNotAllowed}, // the package is refused first
	} {
		err := CheckNewCustomTitle(c.custom, c.name)
		if got := codeOf(err); got != c.code {
			t.Errorf("CheckNewCustomTitle(%v, %q) = %v, want code %v", c.custom, c.name, err, c.code)
		}
	}
}

func TestCustomPackageName(t *testing.T) {
	for _, c := range []struct {
		in, want string
		code     Code
	}{
		{" My package ", "My package", 0},
		{"", "", CodeMissing},
		{" \t", "", CodeMissing},
	} {
		got, err := CustomPackageName(c.in)
		if got != c.want || codeOf(err) != c.code {
			t.Errorf("CustomPackageName(%q) = %q, %v; want %q, code %v", c.in, got, err, c.want, c.code)
		}
	}
}

func TestStoredContentType(t *testing.T) {
	for in, want := range map[ContentType]ContentType{
		ContentAll: ContentUnknown, ContentEJournal: ContentEJournal, ContentUnknown: ContentUnknown,
	} {
		if got := StoredContentType(in); got != want {
			t.Errorf("StoredContentType(%v) = %v, want %v", in, got, want)
		}
	}
}

func TestCheckPackageCoverage(t *testing.T) {
	for _, c := range []struct {
		cov Coverage
		ok  bool
	}{
		{Coverage{}, true},
		{Coverage{Begin: "2001-01-01", End: "2002-12-31"}, true},
		{Coverage{Begin: "2001-01-01"}, true},
		{Coverage{Begin: "2003-01-01", End: "2002-12-31"}, false},
		{Coverage{Begin: "2001-13-01"}, false},
	} {
		if err := CheckPackageCoverage(c.cov); (err == nil) != c.ok {
			t.Errorf("CheckPackageCoverage(%+v) = %v", c.cov, err)
		}
	}
}

func TestStoredEmbargo(t *testing.T) {
	for _, c := range []struct{ in, want Embargo }{
		{Embargo{Unit: EmbargoMonths, Value: 6}, Embargo{Unit: EmbargoMonths, Value: 6}},
		{Embargo{Unit: EmbargoMonths, Value: 0}, Embargo{}},
		{Embargo{Unit: EmbargoNone, Value: 3}, Embargo{}},
		{Embargo{Unit: EmbargoDays, Value: -1}, Embargo{}},
	} {
		if got := StoredEmbargo(c.in); got != c.want {
			t.Errorf("StoredEmbargo(%+v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestEffectiveProxy(t *testing.T) {
	for _, c := range []struct {
		own       string
		set       bool
		inherited []string
		want      ProxyRef
	}{
		{"EZP", true, []string{"PKG", "ROOT"}, ProxyRef{ID: "EZP"}},
		{NoProxyID, true, []string{"PKG"}, ProxyRef{ID: NoProxyID}},
		{"", false, []string{"PKG", "VEN", "ROOT"}, ProxyRef{ID: "PKG", Inherited: true}},
		{"", false, []string{"", "VEN", "ROOT"}, ProxyRef{ID: "VEN", Inherited: true}},
		{"", false, []string{"", "", "ROOT"}, ProxyRef{ID: "ROOT", Inherited: true}},
		{"", false, []string{"", ""}, ProxyRef{ID: NoProxyID, Inherited: true}},
	} {
		if got := EffectiveProxy(c.own, c.set, c.inherited...); got != c.want {
			t.Errorf("EffectiveProxy(%q, %v, %q) = %+v, want %+v", c.own, c.set, c.inherited, got, c.want)
		}
	}
}

func TestHiddenBy(t *testing.T) {
	if got := HiddenBy(true); got != (Visibility{Hidden: true, Reason: ReasonHiddenByCustomer}) {
		t.Errorf("HiddenBy(true) = %+v", got)
	}
	if got := HiddenBy(false); got != (Visibility{}) {
		t.Errorf("HiddenBy(false) = %+v", got)
	}
}

// codeOf is the code of err, 0 for nil.
func codeOf(err error) Code {
	if err == nil {
		return 0
	}
	return ErrorCode(err)
}
