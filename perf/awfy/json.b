implement Benchmark;

# Are-We-Fast-Yet: Json. Parses a 25 KB minified JSON document (a message
# of the RAP web toolkit) into a tree of JSON values and checks its shape
# (an object whose head is an object and whose operations are an array of
# 156 values).
#
# Dynamic dispatch: the suite's JsonValue classes are one pick adt, and
# their methods pick on the variant. The parser's current character is the
# int Limbo's string indexing gives (the suite's ports hold it as a
# one-character string where the language has no character type).
# Collections: polymorphic adts are not supported by our compiler yet, so
# the suite's Vector is written for its two element types here (JVector of
# JSON values, SVector of strings).

include "benchmark.m";
include "sys.m";
	sys: Sys;

INITIAL_SIZE:	con 10;
EOT:	con -1;	# no current character: the end of the text

JsonValue: adt
{
	pick {
	Array =>
		values:	cyclic ref JVector;
	Literal =>
		value:	string;
		is_null:	int;
		is_true:	int;
		is_false:	int;
	Number or String =>
		s:	string;
	Object =>
		names:	ref SVector;
		values:	cyclic ref JVector;
		table:	ref HashIndexTable;
	}

	is_object:	fn(v: self ref JsonValue): int;
	is_array:	fn(v: self ref JsonValue): int;
	as_object:	fn(v: self ref JsonValue): ref JsonValue.Object;
	as_array:	fn(v: self ref JsonValue): ref JsonValue.Array;
	as_string:	fn(v: self ref JsonValue): string;
};

JVector: adt
{
	storage:	array of ref JsonValue;
	first_idx:	int;
	last_idx:	int;

	new:	fn(): ref JVector;
	at:	fn(v: self ref JVector, idx: int): ref JsonValue;
	append:	fn(v: self ref JVector, x: ref JsonValue);
	size:	fn(v: self ref JVector): int;
};

SVector: adt
{
	storage:	array of string;
	first_idx:	int;
	last_idx:	int;

	new:	fn(): ref SVector;
	at:	fn(v: self ref SVector, idx: int): string;
	append:	fn(v: self ref SVector, x: string);
	size:	fn(v: self ref SVector): int;
};

HashIndexTable: adt
{
	hash_table:	array of int;

	new:	fn(): ref HashIndexTable;
	add:	fn(t: self ref HashIndexTable, name: string, index: int);
	get:	fn(t: self ref HashIndexTable, name: string): int;
	hash_slot_for:	fn(t: self ref HashIndexTable, element: string): int;
};

Parser: adt
{
	input:	string;
	index:	int;
	line:	int;
	capture_start:	int;
	column:	int;
	current:	int;
	capture_buffer:	string;

	new:	fn(s: string): ref Parser;
	parse:	fn(p: self ref Parser): ref JsonValue;
	read_value:	fn(p: self ref Parser): ref JsonValue;
	read_array:	fn(p: self ref Parser): ref JsonValue;
	read_object:	fn(p: self ref Parser): ref JsonValue;
	read_name:	fn(p: self ref Parser): string;
	read_null:	fn(p: self ref Parser): ref JsonValue;
	read_true:	fn(p: self ref Parser): ref JsonValue;
	read_false:	fn(p: self ref Parser): ref JsonValue;
	read_required_char:	fn(p: self ref Parser, ch: int);
	read_string:	fn(p: self ref Parser): ref JsonValue;
	read_string_internal:	fn(p: self ref Parser): string;
	read_escape:	fn(p: self ref Parser);
	read_number:	fn(p: self ref Parser): ref JsonValue;
	read_fraction:	fn(p: self ref Parser): int;
	read_exponent:	fn(p: self ref Parser): int;
	read_char:	fn(p: self ref Parser, ch: int): int;
	read_digit:	fn(p: self ref Parser): int;
	skip_white_space:	fn(p: self ref Parser);
	read:	fn(p: self ref Parser);
	start_capture:	fn(p: self ref Parser);
	pause_capture:	fn(p: self ref Parser);
	end_capture:	fn(p: self ref Parser): string;
	expected:	fn(p: self ref Parser, what: string): string;
	error:	fn(p: self ref Parser, message: string): string;
	is_white_space:	fn(p: self ref Parser): int;
	is_digit:	fn(p: self ref Parser): int;
	is_end_of_text:	fn(p: self ref Parser): int;
};

# The suite's literal singletons (module data, set up once).
NULL, TRUE, FALSE: ref JsonValue;

inner_benchmark_loop(inner: int): int
{
	if(NULL == nil) {
		NULL = new_literal("null");
		TRUE = new_literal("true");
		FALSE = new_literal("false");
	}
	for(i := 0; i < inner; i++)
		if(!verify_result(benchmark()))
			return 0;
	return 1;
}

benchmark(): ref JsonValue
{
	return Parser.new(RAP_BENCHMARK_MINIFIED).parse();
}

verify_result(result: ref JsonValue): int
{
	if(!result.is_object())
		return 0;
	if(!object_get(result.as_object(), "head").is_object())
		return 0;
	if(!object_get(result.as_object(), "operations").is_array())
		return 0;
	return object_get(result.as_object(), "operations").as_array().values.size() == 156;
}

# JSON values

new_literal(value: string): ref JsonValue
{
	return ref JsonValue.Literal(value, value == "null", value == "true", value == "false");
}

JsonValue.is_object(v: self ref JsonValue): int
{
	return tagof v == tagof JsonValue.Object;
}

JsonValue.is_array(v: self ref JsonValue): int
{
	return tagof v == tagof JsonValue.Array;
}

JsonValue.as_object(v: self ref JsonValue): ref JsonValue.Object
{
	pick o := v {
	Object =>
		return o;
	}
	raise "Unsupported operation, not an object: " + v.as_string();
}

JsonValue.as_array(v: self ref JsonValue): ref JsonValue.Array
{
	pick a := v {
	Array =>
		return a;
	}
	raise "Unsupported operation, not an array: " + v.as_string();
}

JsonValue.as_string(v: self ref JsonValue): string
{
	pick x := v {
	Literal =>
		return x.value;
	Number or String =>
		return x.s;
	}
	raise "Unsupported operation, not a string";
}

array_add(a: ref JsonValue.Array, value: ref JsonValue)
{
	if(value == nil)
		raise "value is null";
	a.values.append(value);
}

object_add(o: ref JsonValue.Object, name: string, value: ref JsonValue)
{
	if(value == nil)
		raise "value is null";
	o.names.append(name);
	o.values.append(value);
	o.table.add(name, o.names.size() - 1);
}

object_get(o: ref JsonValue.Object, name: string): ref JsonValue
{
	index := object_index_of(o, name);
	if(index == -1)
		return nil;
	return o.values.at(index);
}

object_index_of(o: ref JsonValue.Object, name: string): int
{
	index := o.table.get(name);
	if(index != -1 && name == o.names.at(index))
		return index;
	raise "NotImplemented";
}

# The suite's HashIndexTable: 32 slots of (index + 1), 0 for empty.

HashIndexTable.new(): ref HashIndexTable
{
	return ref HashIndexTable(array[32] of {* => 0});
}

HashIndexTable.add(t: self ref HashIndexTable, name: string, index: int)
{
	slot := t.hash_slot_for(name);
	if(index < 255)
		t.hash_table[slot] = (index + 1) & 16rFF;
	else
		t.hash_table[slot] = 0;
}

HashIndexTable.get(t: self ref HashIndexTable, name: string): int
{
	slot := t.hash_slot_for(name);
	return (t.hash_table[slot] & 16rFF) - 1;
}

# Not a proper hash, but the suite's: sufficient and portable.
string_hash(s: string): int
{
	return len s * 1402589;
}

HashIndexTable.hash_slot_for(t: self ref HashIndexTable, element: string): int
{
	return string_hash(element) & (len t.hash_table - 1);
}

# The suite's Vector, for JSON values and for strings.

JVector.new(): ref JVector
{
	return ref JVector(nil, 0, 0);
}

JVector.at(v: self ref JVector, idx: int): ref JsonValue
{
	if(v.storage == nil || idx >= len v.storage)
		return nil;
	return v.storage[idx];
}

JVector.append(v: self ref JVector, x: ref JsonValue)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref JsonValue;
	else if(v.last_idx >= len v.storage) {
		storage := array[2 * len v.storage] of ref JsonValue;
		for(i := 0; i < len v.storage; i++)
			storage[i] = v.storage[i];
		v.storage = storage;
	}
	v.storage[v.last_idx++] = x;
}

JVector.size(v: self ref JVector): int
{
	return v.last_idx - v.first_idx;
}

SVector.new(): ref SVector
{
	return ref SVector(nil, 0, 0);
}

SVector.at(v: self ref SVector, idx: int): string
{
	if(v.storage == nil || idx >= len v.storage)
		return nil;
	return v.storage[idx];
}

SVector.append(v: self ref SVector, x: string)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of string;
	else if(v.last_idx >= len v.storage) {
		storage := array[2 * len v.storage] of string;
		for(i := 0; i < len v.storage; i++)
			storage[i] = v.storage[i];
		v.storage = storage;
	}
	v.storage[v.last_idx++] = x;
}

SVector.size(v: self ref SVector): int
{
	return v.last_idx - v.first_idx;
}

# The parser

Parser.new(s: string): ref Parser
{
	return ref Parser(s, -1, 1, -1, 0, EOT, "");
}

Parser.parse(p: self ref Parser): ref JsonValue
{
	p.read();
	p.skip_white_space();
	result := p.read_value();
	p.skip_white_space();
	if(!p.is_end_of_text())
		raise p.error("Unexpected character");
	return result;
}

Parser.read_value(p: self ref Parser): ref JsonValue
{
	case p.current {
	'n' =>
		return p.read_null();
	't' =>
		return p.read_true();
	'f' =>
		return p.read_false();
	'"' =>
		return p.read_string();
	'[' =>
		return p.read_array();
	'{' =>
		return p.read_object();
	'-' or '0' to '9' =>
		return p.read_number();
	}
	raise p.expected("value");
}

Parser.read_array(p: self ref Parser): ref JsonValue
{
	p.read();
	# as_array: our compiler gives ref JsonValue.Array(...) the type ref JsonValue.
	a := (ref JsonValue.Array(JVector.new())).as_array();
	p.skip_white_space();
	if(p.read_char(']'))
		return a;
	do {
		p.skip_white_space();
		array_add(a, p.read_value());
		p.skip_white_space();
	} while(p.read_char(','));
	if(!p.read_char(']'))
		raise p.expected("',' or ']'");
	return a;
}

Parser.read_object(p: self ref Parser): ref JsonValue
{
	p.read();
	# as_object: our compiler gives ref JsonValue.Object(...) the type ref JsonValue.
	o := (ref JsonValue.Object(SVector.new(), JVector.new(), HashIndexTable.new())).as_object();
	p.skip_white_space();
	if(p.read_char('}'))
		return o;
	do {
		p.skip_white_space();
		name := p.read_name();
		p.skip_white_space();
		if(!p.read_char(':'))
			raise p.expected("':'");
		p.skip_white_space();
		object_add(o, name, p.read_value());
		p.skip_white_space();
	} while(p.read_char(','));
	if(!p.read_char('}'))
		raise p.expected("',' or '}'");
	return o;
}

Parser.read_name(p: self ref Parser): string
{
	if(p.current != '"')
		raise p.expected("name");
	return p.read_string_internal();
}

Parser.read_null(p: self ref Parser): ref JsonValue
{
	p.read();
	p.read_required_char('u');
	p.read_required_char('l');
	p.read_required_char('l');
	return NULL;
}

Parser.read_true(p: self ref Parser): ref JsonValue
{
	p.read();
	p.read_required_char('r');
	p.read_required_char('u');
	p.read_required_char('e');
	return TRUE;
}

Parser.read_false(p: self ref Parser): ref JsonValue
{
	p.read();
	p.read_required_char('a');
	p.read_required_char('l');
	p.read_required_char('s');
	p.read_required_char('e');
	return FALSE;
}

Parser.read_required_char(p: self ref Parser, ch: int)
{
	if(!p.read_char(ch)) {
		s := "'";
		s[1] = ch;
		raise p.expected(s + "'");
	}
}

Parser.read_string(p: self ref Parser): ref JsonValue
{
	return ref JsonValue.String(p.read_string_internal());
}

Parser.read_string_internal(p: self ref Parser): string
{
	p.read();
	p.start_capture();
	while(p.current != '"') {
		if(p.current == '\\') {
			p.pause_capture();
			p.read_escape();
			p.start_capture();
		} else
			p.read();
	}
	s := p.end_capture();
	p.read();
	return s;
}

Parser.read_escape(p: self ref Parser)
{
	p.read();
	c: int;
	case p.current {
	'"' or '/' or '\\' =>
		c = p.current;
	'b' =>
		c = '\b';
	'f' =>
		c = '\f';
	'n' =>
		c = '\n';
	'r' =>
		c = '\r';
	't' =>
		c = '\t';
	* =>
		raise p.expected("valid escape sequence");
	}
	p.capture_buffer[len p.capture_buffer] = c;
	p.read();
}

Parser.read_number(p: self ref Parser): ref JsonValue
{
	p.start_capture();
	p.read_char('-');
	first_digit := p.current;
	if(!p.read_digit())
		raise p.expected("digit");
	if(first_digit != '0')
		while(p.read_digit())
			;
	p.read_fraction();
	p.read_exponent();
	return ref JsonValue.Number(p.end_capture());
}

Parser.read_fraction(p: self ref Parser): int
{
	if(!p.read_char('.'))
		return 0;
	if(!p.read_digit())
		raise p.expected("digit");
	while(p.read_digit())
		;
	return 1;
}

Parser.read_exponent(p: self ref Parser): int
{
	if(!p.read_char('e') && !p.read_char('E'))
		return 0;
	if(!p.read_char('+'))
		p.read_char('-');
	if(!p.read_digit())
		raise p.expected("digit");
	while(p.read_digit())
		;
	return 1;
}

Parser.read_char(p: self ref Parser, ch: int): int
{
	if(p.current != ch)
		return 0;
	p.read();
	return 1;
}

Parser.read_digit(p: self ref Parser): int
{
	if(!p.is_digit())
		return 0;
	p.read();
	return 1;
}

Parser.skip_white_space(p: self ref Parser)
{
	while(p.is_white_space())
		p.read();
}

Parser.read(p: self ref Parser)
{
	if(p.current == '\n') {
		p.line++;
		p.column = 0;
	}
	p.index++;
	if(p.index < len p.input)
		p.current = p.input[p.index];
	else
		p.current = EOT;
}

Parser.start_capture(p: self ref Parser)
{
	p.capture_start = p.index;
}

Parser.pause_capture(p: self ref Parser)
{
	p.capture_buffer += p.input[p.capture_start:p.index];
	p.capture_start = -1;
}

Parser.end_capture(p: self ref Parser): string
{
	captured: string;
	if(p.capture_buffer == "")
		captured = p.input[p.capture_start:p.index];
	else {
		p.capture_buffer += p.input[p.capture_start:p.index];
		captured = p.capture_buffer;
		p.capture_buffer = "";
	}
	p.capture_start = -1;
	return captured;
}

Parser.expected(p: self ref Parser, what: string): string
{
	if(p.is_end_of_text())
		return p.error("Unexpected end of input");
	return p.error("Expected " + what);
}

Parser.error(p: self ref Parser, message: string): string
{
	if(sys == nil)
		sys = load Sys Sys->PATH;
	return sys->sprint("JSON:%d:%d (%d): %s", p.line, p.column - 1, p.index, message);
}

Parser.is_white_space(p: self ref Parser): int
{
	c := p.current;
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

Parser.is_digit(p: self ref Parser): int
{
	return p.current >= '0' && p.current <= '9';
}

Parser.is_end_of_text(p: self ref Parser): int
{
	return p.current == EOT;
}

# The document the suite parses.
RAP_BENCHMARK_MINIFIED: con
	`{"head":{"requestCounter":4},"operations":[["destroy","w54"],["set","w2",{"activeControl":`
	+ `"w99"}],["set","w21",{"customVariant":"variant_navigation"}],["set","w28",{"customVariant"`
	+ `:"variant_selected"}],["set","w53",{"children":["w95"]}],["create","w95","rwt.widgets.Comp`
	+ `osite",{"parent":"w53","style":["NONE"],"bounds":[0,0,1008,586],"children":["w96","w97"],"`
	+ `tabIndex":-1,"clientArea":[0,0,1008,586]}],["create","w96","rwt.widgets.Label",{"parent":"`
	+ `w95","style":["NONE"],"bounds":[10,30,112,26],"tabIndex":-1,"customVariant":"variant_pageH`
	+ `eadline","text":"TableViewer"}],["create","w97","rwt.widgets.Composite",{"parent":"w95","s`
	+ `tyle":["NONE"],"bounds":[0,61,1008,525],"children":["w98","w99","w226","w228"],"tabIndex":`
	+ `-1,"clientArea":[0,0,1008,525]}],["create","w98","rwt.widgets.Text",{"parent":"w97","style`
	+ `":["LEFT","SINGLE","BORDER"],"bounds":[10,10,988,32],"tabIndex":22,"activeKeys":["#13","#2`
	+ `7","#40"]}],["listen","w98",{"KeyDown":true,"Modify":true}],["create","w99","rwt.widgets.G`
	+ `rid",{"parent":"w97","style":["SINGLE","BORDER"],"appearance":"table","indentionWidth":0,"`
	+ `treeColumn":-1,"markupEnabled":false}],["create","w100","rwt.widgets.ScrollBar",{"parent":`
	+ `"w99","style":["HORIZONTAL"]}],["create","w101","rwt.widgets.ScrollBar",{"parent":"w99","s`
	+ `tyle":["VERTICAL"]}],["set","w99",{"bounds":[10,52,988,402],"children":[],"tabIndex":23,"a`
	+ `ctiveKeys":["CTRL+#70","CTRL+#78","CTRL+#82","CTRL+#89","CTRL+#83","CTRL+#71","CTRL+#69"],`
	+ `"cancelKeys":["CTRL+#70","CTRL+#78","CTRL+#82","CTRL+#89","CTRL+#83","CTRL+#71","CTRL+#69"`
	+ `]}],["listen","w99",{"MouseDown":true,"MouseUp":true,"MouseDoubleClick":true,"KeyDown":tru`
	+ `e}],["set","w99",{"itemCount":118,"itemHeight":28,"itemMetrics":[[0,0,50,3,0,3,44],[1,50,5`
	+ `0,53,0,53,44],[2,100,140,103,0,103,134],[3,240,180,243,0,243,174],[4,420,50,423,0,423,44],`
	+ `[5,470,50,473,0,473,44]],"columnCount":6,"headerHeight":35,"headerVisible":true,"linesVisi`
	+ `ble":true,"focusItem":"w108","selection":["w108"]}],["listen","w99",{"Selection":true,"Def`
	+ `aultSelection":true}],["set","w99",{"enableCellToolTip":true}],["listen","w100",{"Selectio`
	+ `n":true}],["set","w101",{"visibility":true}],["listen","w101",{"Selection":true}],["create`
	+ `","w102","rwt.widgets.GridColumn",{"parent":"w99","text":"Nr.","width":50,"moveable":true}`
	+ `],["listen","w102",{"Selection":true}],["create","w103","rwt.widgets.GridColumn",{"parent"`
	+ `:"w99","text":"Sym.","index":1,"left":50,"width":50,"moveable":true}],["listen","w103",{"S`
	+ `election":true}],["create","w104","rwt.widgets.GridColumn",{"parent":"w99","text":"Name","`
	+ `index":2,"left":100,"width":140,"moveable":true}],["listen","w104",{"Selection":true}],["c`
	+ `reate","w105","rwt.widgets.GridColumn",{"parent":"w99","text":"Series","index":3,"left":24`
	+ `0,"width":180,"moveable":true}],["listen","w105",{"Selection":true}],["create","w106","rwt`
	+ `.widgets.GridColumn",{"parent":"w99","text":"Group","index":4,"left":420,"width":50,"movea`
	+ `ble":true}],["listen","w106",{"Selection":true}],["create","w107","rwt.widgets.GridColumn"`
	+ `,{"parent":"w99","text":"Period","index":5,"left":470,"width":50,"moveable":true}],["liste`
	+ `n","w107",{"Selection":true}],["create","w108","rwt.widgets.GridItem",{"parent":"w99","ind`
	+ `ex":0,"texts":["1","H","Hydrogen","Nonmetal","1","1"],"cellBackgrounds":[null,null,null,[1`
	+ `38,226,52,255],null,null]}],["create","w109","rwt.widgets.GridItem",{"parent":"w99","index`
	+ `":1,"texts":["2","He","Helium","Noble gas","18","1"],"cellBackgrounds":[null,null,null,[11`
	+ `4,159,207,255],null,null]}],["create","w110","rwt.widgets.GridItem",{"parent":"w99","index`
	+ `":2,"texts":["3","Li","Lithium","Alkali metal","1","2"],"cellBackgrounds":[null,null,null,`
	+ `[239,41,41,255],null,null]}],["create","w111","rwt.widgets.GridItem",{"parent":"w99","inde`
	+ `x":3,"texts":["4","Be","Beryllium","Alkaline earth metal","2","2"],"cellBackgrounds":[null`
	+ `,null,null,[233,185,110,255],null,null]}],["create","w112","rwt.widgets.GridItem",{"parent`
	+ `":"w99","index":4,"texts":["5","B","Boron","Metalloid","13","2"],"cellBackgrounds":[null,n`
	+ `ull,null,[156,159,153,255],null,null]}],["create","w113","rwt.widgets.GridItem",{"parent":`
	+ `"w99","index":5,"texts":["6","C","Carbon","Nonmetal","14","2"],"cellBackgrounds":[null,nul`
	+ `l,null,[138,226,52,255],null,null]}],["create","w114","rwt.widgets.GridItem",{"parent":"w9`
	+ `9","index":6,"texts":["7","N","Nitrogen","Nonmetal","15","2"],"cellBackgrounds":[null,null`
	+ `,null,[138,226,52,255],null,null]}],["create","w115","rwt.widgets.GridItem",{"parent":"w99`
	+ `","index":7,"texts":["8","O","Oxygen","Nonmetal","16","2"],"cellBackgrounds":[null,null,nu`
	+ `ll,[138,226,52,255],null,null]}],["create","w116","rwt.widgets.GridItem",{"parent":"w99","`
	+ `index":8,"texts":["9","F","Fluorine","Halogen","17","2"],"cellBackgrounds":[null,null,null`
	+ `,[252,233,79,255],null,null]}],["create","w117","rwt.widgets.GridItem",{"parent":"w99","in`
	+ `dex":9,"texts":["10","Ne","Neon","Noble gas","18","2"],"cellBackgrounds":[null,null,null,[`
	+ `114,159,207,255],null,null]}],["create","w118","rwt.widgets.GridItem",{"parent":"w99","ind`
	+ `ex":10,"texts":["11","Na","Sodium","Alkali metal","1","3"],"cellBackgrounds":[null,null,nu`
	+ `ll,[239,41,41,255],null,null]}],["create","w119","rwt.widgets.GridItem",{"parent":"w99","i`
	+ `ndex":11,"texts":["12","Mg","Magnesium","Alkaline earth metal","2","3"],"cellBackgrounds":`
	+ `[null,null,null,[233,185,110,255],null,null]}],["create","w120","rwt.widgets.GridItem",{"p`
	+ `arent":"w99","index":12,"texts":["13","Al","Aluminium","Poor metal","13","3"],"cellBackgro`
	+ `unds":[null,null,null,[238,238,236,255],null,null]}],["create","w121","rwt.widgets.GridIte`
	+ `m",{"parent":"w99","index":13,"texts":["14","Si","Silicon","Metalloid","14","3"],"cellBack`
	+ `grounds":[null,null,null,[156,159,153,255],null,null]}],["create","w122","rwt.widgets.Grid`
	+ `Item",{"parent":"w99","index":14,"texts":["15","P","Phosphorus","Nonmetal","15","3"],"cell`
	+ `Backgrounds":[null,null,null,[138,226,52,255],null,null]}],["create","w123","rwt.widgets.G`
	+ `ridItem",{"parent":"w99","index":15,"texts":["16","S","Sulfur","Nonmetal","16","3"],"cellB`
	+ `ackgrounds":[null,null,null,[138,226,52,255],null,null]}],["create","w124","rwt.widgets.Gr`
	+ `idItem",{"parent":"w99","index":16,"texts":["17","Cl","Chlorine","Halogen","17","3"],"cell`
	+ `Backgrounds":[null,null,null,[252,233,79,255],null,null]}],["create","w125","rwt.widgets.G`
	+ `ridItem",{"parent":"w99","index":17,"texts":["18","Ar","Argon","Noble gas","18","3"],"cell`
	+ `Backgrounds":[null,null,null,[114,159,207,255],null,null]}],["create","w126","rwt.widgets.`
	+ `GridItem",{"parent":"w99","index":18,"texts":["19","K","Potassium","Alkali metal","1","4"]`
	+ `,"cellBackgrounds":[null,null,null,[239,41,41,255],null,null]}],["create","w127","rwt.widg`
	+ `ets.GridItem",{"parent":"w99","index":19,"texts":["20","Ca","Calcium","Alkaline earth meta`
	+ `l","2","4"],"cellBackgrounds":[null,null,null,[233,185,110,255],null,null]}],["create","w1`
	+ `28","rwt.widgets.GridItem",{"parent":"w99","index":20,"texts":["21","Sc","Scandium","Trans`
	+ `ition metal","3","4"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["cr`
	+ `eate","w129","rwt.widgets.GridItem",{"parent":"w99","index":21,"texts":["22","Ti","Titaniu`
	+ `m","Transition metal","4","4"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,nul`
	+ `l]}],["create","w130","rwt.widgets.GridItem",{"parent":"w99","index":22,"texts":["23","V",`
	+ `"Vanadium","Transition metal","5","4"],"cellBackgrounds":[null,null,null,[252,175,62,255],`
	+ `null,null]}],["create","w131","rwt.widgets.GridItem",{"parent":"w99","index":23,"texts":["`
	+ `24","Cr","Chromium","Transition metal","6","4"],"cellBackgrounds":[null,null,null,[252,175`
	+ `,62,255],null,null]}],["create","w132","rwt.widgets.GridItem",{"parent":"w99","index":24,"`
	+ `texts":["25","Mn","Manganese","Transition metal","7","4"],"cellBackgrounds":[null,null,nul`
	+ `l,[252,175,62,255],null,null]}],["create","w133","rwt.widgets.GridItem",{"parent":"w99","i`
	+ `ndex":25,"texts":["26","Fe","Iron","Transition metal","8","4"],"cellBackgrounds":[null,nul`
	+ `l,null,[252,175,62,255],null,null]}],["create","w134","rwt.widgets.GridItem",{"parent":"w9`
	+ `9","index":26,"texts":["27","Co","Cobalt","Transition metal","9","4"],"cellBackgrounds":[n`
	+ `ull,null,null,[252,175,62,255],null,null]}],["create","w135","rwt.widgets.GridItem",{"pare`
	+ `nt":"w99","index":27,"texts":["28","Ni","Nickel","Transition metal","10","4"],"cellBackgro`
	+ `unds":[null,null,null,[252,175,62,255],null,null]}],["create","w136","rwt.widgets.GridItem`
	+ `",{"parent":"w99","index":28,"texts":["29","Cu","Copper","Transition metal","11","4"],"cel`
	+ `lBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["create","w137","rwt.widgets.`
	+ `GridItem",{"parent":"w99","index":29,"texts":["30","Zn","Zinc","Transition metal","12","4"`
	+ `],"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["create","w138","rwt.wi`
	+ `dgets.GridItem",{"parent":"w99","index":30,"texts":["31","Ga","Gallium","Poor metal","13",`
	+ `"4"],"cellBackgrounds":[null,null,null,[238,238,236,255],null,null]}],["create","w139","rw`
	+ `t.widgets.GridItem",{"parent":"w99","index":31,"texts":["32","Ge","Germanium","Metalloid",`
	+ `"14","4"],"cellBackgrounds":[null,null,null,[156,159,153,255],null,null]}],["create","w140`
	+ `","rwt.widgets.GridItem",{"parent":"w99","index":32,"texts":["33","As","Arsenic","Metalloi`
	+ `d","15","4"],"cellBackgrounds":[null,null,null,[156,159,153,255],null,null]}],["create","w`
	+ `141","rwt.widgets.GridItem",{"parent":"w99","index":33,"texts":["34","Se","Selenium","Nonm`
	+ `etal","16","4"],"cellBackgrounds":[null,null,null,[138,226,52,255],null,null]}],["create",`
	+ `"w142","rwt.widgets.GridItem",{"parent":"w99","index":34,"texts":["35","Br","Bromine","Hal`
	+ `ogen","17","4"],"cellBackgrounds":[null,null,null,[252,233,79,255],null,null]}],["create",`
	+ `"w143","rwt.widgets.GridItem",{"parent":"w99","index":35,"texts":["36","Kr","Krypton","Nob`
	+ `le gas","18","4"],"cellBackgrounds":[null,null,null,[114,159,207,255],null,null]}],["creat`
	+ `e","w144","rwt.widgets.GridItem",{"parent":"w99","index":36,"texts":["37","Rb","Rubidium",`
	+ `"Alkali metal","1","5"],"cellBackgrounds":[null,null,null,[239,41,41,255],null,null]}],["c`
	+ `reate","w145","rwt.widgets.GridItem",{"parent":"w99","index":37,"texts":["38","Sr","Stront`
	+ `ium","Alkaline earth metal","2","5"],"cellBackgrounds":[null,null,null,[233,185,110,255],n`
	+ `ull,null]}],["create","w146","rwt.widgets.GridItem",{"parent":"w99","index":38,"texts":["3`
	+ `9","Y","Yttrium","Transition metal","3","5"],"cellBackgrounds":[null,null,null,[252,175,62`
	+ `,255],null,null]}],["create","w147","rwt.widgets.GridItem",{"parent":"w99","index":39,"tex`
	+ `ts":["40","Zr","Zirconium","Transition metal","4","5"],"cellBackgrounds":[null,null,null,[`
	+ `252,175,62,255],null,null]}],["create","w148","rwt.widgets.GridItem",{"parent":"w99","inde`
	+ `x":40,"texts":["41","Nb","Niobium","Transition metal","5","5"],"cellBackgrounds":[null,nul`
	+ `l,null,[252,175,62,255],null,null]}],["create","w149","rwt.widgets.GridItem",{"parent":"w9`
	+ `9","index":41,"texts":["42","Mo","Molybdenum","Transition metal","6","5"],"cellBackgrounds`
	+ `":[null,null,null,[252,175,62,255],null,null]}],["create","w150","rwt.widgets.GridItem",{"`
	+ `parent":"w99","index":42,"texts":["43","Tc","Technetium","Transition metal","7","5"],"cell`
	+ `Backgrounds":[null,null,null,[252,175,62,255],null,null]}],["create","w151","rwt.widgets.G`
	+ `ridItem",{"parent":"w99","index":43,"texts":["44","Ru","Ruthenium","Transition metal","8",`
	+ `"5"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["create","w152","rwt`
	+ `.widgets.GridItem",{"parent":"w99","index":44,"texts":["45","Rh","Rhodium","Transition met`
	+ `al","9","5"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["create","w1`
	+ `53","rwt.widgets.GridItem",{"parent":"w99","index":45,"texts":["46","Pd","Palladium","Tran`
	+ `sition metal","10","5"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["`
	+ `create","w154","rwt.widgets.GridItem",{"parent":"w99","index":46,"texts":["47","Ag","Silve`
	+ `r","Transition metal","11","5"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,nu`
	+ `ll]}],["create","w155","rwt.widgets.GridItem",{"parent":"w99","index":47,"texts":["48","Cd`
	+ `","Cadmium","Transition metal","12","5"],"cellBackgrounds":[null,null,null,[252,175,62,255`
	+ `],null,null]}],["create","w156","rwt.widgets.GridItem",{"parent":"w99","index":48,"texts":`
	+ `["49","In","Indium","Poor metal","13","5"],"cellBackgrounds":[null,null,null,[238,238,236,`
	+ `255],null,null]}],["create","w157","rwt.widgets.GridItem",{"parent":"w99","index":49,"text`
	+ `s":["50","Sn","Tin","Poor metal","14","5"],"cellBackgrounds":[null,null,null,[238,238,236,`
	+ `255],null,null]}],["create","w158","rwt.widgets.GridItem",{"parent":"w99","index":50,"text`
	+ `s":["51","Sb","Antimony","Metalloid","15","5"],"cellBackgrounds":[null,null,null,[156,159,`
	+ `153,255],null,null]}],["create","w159","rwt.widgets.GridItem",{"parent":"w99","index":51,"`
	+ `texts":["52","Te","Tellurium","Metalloid","16","5"],"cellBackgrounds":[null,null,null,[156`
	+ `,159,153,255],null,null]}],["create","w160","rwt.widgets.GridItem",{"parent":"w99","index"`
	+ `:52,"texts":["53","I","Iodine","Halogen","17","5"],"cellBackgrounds":[null,null,null,[252,`
	+ `233,79,255],null,null]}],["create","w161","rwt.widgets.GridItem",{"parent":"w99","index":5`
	+ `3,"texts":["54","Xe","Xenon","Noble gas","18","5"],"cellBackgrounds":[null,null,null,[114,`
	+ `159,207,255],null,null]}],["create","w162","rwt.widgets.GridItem",{"parent":"w99","index":`
	+ `54,"texts":["55","Cs","Caesium","Alkali metal","1","6"],"cellBackgrounds":[null,null,null,`
	+ `[239,41,41,255],null,null]}],["create","w163","rwt.widgets.GridItem",{"parent":"w99","inde`
	+ `x":55,"texts":["56","Ba","Barium","Alkaline earth metal","2","6"],"cellBackgrounds":[null,`
	+ `null,null,[233,185,110,255],null,null]}],["create","w164","rwt.widgets.GridItem",{"parent"`
	+ `:"w99","index":56,"texts":["57","La","Lanthanum","Lanthanide","3","6"],"cellBackgrounds":[`
	+ `null,null,null,[173,127,168,255],null,null]}],["create","w165","rwt.widgets.GridItem",{"pa`
	+ `rent":"w99","index":57,"texts":["58","Ce","Cerium","Lanthanide","3","6"],"cellBackgrounds"`
	+ `:[null,null,null,[173,127,168,255],null,null]}],["create","w166","rwt.widgets.GridItem",{"`
	+ `parent":"w99","index":58,"texts":["59","Pr","Praseodymium","Lanthanide","3","6"],"cellBack`
	+ `grounds":[null,null,null,[173,127,168,255],null,null]}],["create","w167","rwt.widgets.Grid`
	+ `Item",{"parent":"w99","index":59,"texts":["60","Nd","Neodymium","Lanthanide","3","6"],"cel`
	+ `lBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create","w168","rwt.widgets`
	+ `.GridItem",{"parent":"w99","index":60,"texts":["61","Pm","Promethium","Lanthanide","3","6"`
	+ `],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create","w169","rwt.w`
	+ `idgets.GridItem",{"parent":"w99","index":61,"texts":["62","Sm","Samarium","Lanthanide","3"`
	+ `,"6"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create","w170","r`
	+ `wt.widgets.GridItem",{"parent":"w99","index":62,"texts":["63","Eu","Europium","Lanthanide"`
	+ `,"3","6"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create","w171`
	+ `","rwt.widgets.GridItem",{"parent":"w99","index":63,"texts":["64","Gd","Gadolinium","Lanth`
	+ `anide","3","6"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create"`
	+ `,"w172","rwt.widgets.GridItem",{"parent":"w99","index":64,"texts":["65","Tb","Terbium","La`
	+ `nthanide","3","6"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["crea`
	+ `te","w173","rwt.widgets.GridItem",{"parent":"w99","index":65,"texts":["66","Dy","Dysprosiu`
	+ `m","Lanthanide","3","6"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],`
	+ `["create","w174","rwt.widgets.GridItem",{"parent":"w99","index":66,"texts":["67","Ho","Hol`
	+ `mium","Lanthanide","3","6"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]`
	+ `}],["create","w175","rwt.widgets.GridItem",{"parent":"w99","index":67,"texts":["68","Er","`
	+ `Erbium","Lanthanide","3","6"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,nul`
	+ `l]}],["create","w176","rwt.widgets.GridItem",{"parent":"w99","index":68,"texts":["69","Tm"`
	+ `,"Thulium","Lanthanide","3","6"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,`
	+ `null]}],["create","w177","rwt.widgets.GridItem",{"parent":"w99","index":69,"texts":["70","`
	+ `Yb","Ytterbium","Lanthanide","3","6"],"cellBackgrounds":[null,null,null,[173,127,168,255],`
	+ `null,null]}],["create","w178","rwt.widgets.GridItem",{"parent":"w99","index":70,"texts":["`
	+ `71","Lu","Lutetium","Lanthanide","3","6"],"cellBackgrounds":[null,null,null,[173,127,168,2`
	+ `55],null,null]}],["create","w179","rwt.widgets.GridItem",{"parent":"w99","index":71,"texts`
	+ `":["72","Hf","Hafnium","Transition metal","4","6"],"cellBackgrounds":[null,null,null,[252,`
	+ `175,62,255],null,null]}],["create","w180","rwt.widgets.GridItem",{"parent":"w99","index":7`
	+ `2,"texts":["73","Ta","Tantalum","Transition metal","5","6"],"cellBackgrounds":[null,null,n`
	+ `ull,[252,175,62,255],null,null]}],["create","w181","rwt.widgets.GridItem",{"parent":"w99",`
	+ `"index":73,"texts":["74","W","Tungsten","Transition metal","6","6"],"cellBackgrounds":[nul`
	+ `l,null,null,[252,175,62,255],null,null]}],["create","w182","rwt.widgets.GridItem",{"parent`
	+ `":"w99","index":74,"texts":["75","Re","Rhenium","Transition metal","7","6"],"cellBackgroun`
	+ `ds":[null,null,null,[252,175,62,255],null,null]}],["create","w183","rwt.widgets.GridItem",`
	+ `{"parent":"w99","index":75,"texts":["76","Os","Osmium","Transition metal","8","6"],"cellBa`
	+ `ckgrounds":[null,null,null,[252,175,62,255],null,null]}],["create","w184","rwt.widgets.Gri`
	+ `dItem",{"parent":"w99","index":76,"texts":["77","Ir","Iridium","Transition metal","9","6"]`
	+ `,"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["create","w185","rwt.wid`
	+ `gets.GridItem",{"parent":"w99","index":77,"texts":["78","Pt","Platinum","Transition metal"`
	+ `,"10","6"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["create","w186`
	+ `","rwt.widgets.GridItem",{"parent":"w99","index":78,"texts":["79","Au","Gold","Transition `
	+ `metal","11","6"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["create"`
	+ `,"w187","rwt.widgets.GridItem",{"parent":"w99","index":79,"texts":["80","Hg","Mercury","Tr`
	+ `ansition metal","12","6"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],`
	+ `["create","w188","rwt.widgets.GridItem",{"parent":"w99","index":80,"texts":["81","Tl","Tha`
	+ `llium","Poor metal","13","6"],"cellBackgrounds":[null,null,null,[238,238,236,255],null,nul`
	+ `l]}],["create","w189","rwt.widgets.GridItem",{"parent":"w99","index":81,"texts":["82","Pb"`
	+ `,"Lead","Poor metal","14","6"],"cellBackgrounds":[null,null,null,[238,238,236,255],null,nu`
	+ `ll]}],["create","w190","rwt.widgets.GridItem",{"parent":"w99","index":82,"texts":["83","Bi`
	+ `","Bismuth","Poor metal","15","6"],"cellBackgrounds":[null,null,null,[238,238,236,255],nul`
	+ `l,null]}],["create","w191","rwt.widgets.GridItem",{"parent":"w99","index":83,"texts":["84"`
	+ `,"Po","Polonium","Metalloid","16","6"],"cellBackgrounds":[null,null,null,[156,159,153,255]`
	+ `,null,null]}],["create","w192","rwt.widgets.GridItem",{"parent":"w99","index":84,"texts":[`
	+ `"85","At","Astatine","Halogen","17","6"],"cellBackgrounds":[null,null,null,[252,233,79,255`
	+ `],null,null]}],["create","w193","rwt.widgets.GridItem",{"parent":"w99","index":85,"texts":`
	+ `["86","Rn","Radon","Noble gas","18","6"],"cellBackgrounds":[null,null,null,[114,159,207,25`
	+ `5],null,null]}],["create","w194","rwt.widgets.GridItem",{"parent":"w99","index":86,"texts"`
	+ `:["87","Fr","Francium","Alkali metal","1","7"],"cellBackgrounds":[null,null,null,[239,41,4`
	+ `1,255],null,null]}],["create","w195","rwt.widgets.GridItem",{"parent":"w99","index":87,"te`
	+ `xts":["88","Ra","Radium","Alkaline earth metal","2","7"],"cellBackgrounds":[null,null,null`
	+ `,[233,185,110,255],null,null]}],["create","w196","rwt.widgets.GridItem",{"parent":"w99","i`
	+ `ndex":88,"texts":["89","Ac","Actinium","Actinide","3","7"],"cellBackgrounds":[null,null,nu`
	+ `ll,[173,127,168,255],null,null]}],["create","w197","rwt.widgets.GridItem",{"parent":"w99",`
	+ `"index":89,"texts":["90","Th","Thorium","Actinide","3","7"],"cellBackgrounds":[null,null,n`
	+ `ull,[173,127,168,255],null,null]}],["create","w198","rwt.widgets.GridItem",{"parent":"w99"`
	+ `,"index":90,"texts":["91","Pa","Protactinium","Actinide","3","7"],"cellBackgrounds":[null,`
	+ `null,null,[173,127,168,255],null,null]}],["create","w199","rwt.widgets.GridItem",{"parent"`
	+ `:"w99","index":91,"texts":["92","U","Uranium","Actinide","3","7"],"cellBackgrounds":[null,`
	+ `null,null,[173,127,168,255],null,null]}],["create","w200","rwt.widgets.GridItem",{"parent"`
	+ `:"w99","index":92,"texts":["93","Np","Neptunium","Actinide","3","7"],"cellBackgrounds":[nu`
	+ `ll,null,null,[173,127,168,255],null,null]}],["create","w201","rwt.widgets.GridItem",{"pare`
	+ `nt":"w99","index":93,"texts":["94","Pu","Plutonium","Actinide","3","7"],"cellBackgrounds":`
	+ `[null,null,null,[173,127,168,255],null,null]}],["create","w202","rwt.widgets.GridItem",{"p`
	+ `arent":"w99","index":94,"texts":["95","Am","Americium","Actinide","3","7"],"cellBackground`
	+ `s":[null,null,null,[173,127,168,255],null,null]}],["create","w203","rwt.widgets.GridItem",`
	+ `{"parent":"w99","index":95,"texts":["96","Cm","Curium","Actinide","3","7"],"cellBackground`
	+ `s":[null,null,null,[173,127,168,255],null,null]}],["create","w204","rwt.widgets.GridItem",`
	+ `{"parent":"w99","index":96,"texts":["97","Bk","Berkelium","Actinide","3","7"],"cellBackgro`
	+ `unds":[null,null,null,[173,127,168,255],null,null]}],["create","w205","rwt.widgets.GridIte`
	+ `m",{"parent":"w99","index":97,"texts":["98","Cf","Californium","Actinide","3","7"],"cellBa`
	+ `ckgrounds":[null,null,null,[173,127,168,255],null,null]}],["create","w206","rwt.widgets.Gr`
	+ `idItem",{"parent":"w99","index":98,"texts":["99","Es","Einsteinium","Actinide","3","7"],"c`
	+ `ellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create","w207","rwt.widge`
	+ `ts.GridItem",{"parent":"w99","index":99,"texts":["100","Fm","Fermium","Actinide","3","7"],`
	+ `"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create","w208","rwt.wid`
	+ `gets.GridItem",{"parent":"w99","index":100,"texts":["101","Md","Mendelevium","Actinide","3`
	+ `","7"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create","w209","`
	+ `rwt.widgets.GridItem",{"parent":"w99","index":101,"texts":["102","No","Nobelium","Actinide`
	+ `","3","7"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create","w21`
	+ `0","rwt.widgets.GridItem",{"parent":"w99","index":102,"texts":["103","Lr","Lawrencium","Ac`
	+ `tinide","3","7"],"cellBackgrounds":[null,null,null,[173,127,168,255],null,null]}],["create`
	+ `","w211","rwt.widgets.GridItem",{"parent":"w99","index":103,"texts":["104","Rf","Rutherfor`
	+ `dium","Transition metal","4","7"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,`
	+ `null]}],["create","w212","rwt.widgets.GridItem",{"parent":"w99","index":104,"texts":["105"`
	+ `,"Db","Dubnium","Transition metal","5","7"],"cellBackgrounds":[null,null,null,[252,175,62,`
	+ `255],null,null]}],["create","w213","rwt.widgets.GridItem",{"parent":"w99","index":105,"tex`
	+ `ts":["106","Sg","Seaborgium","Transition metal","6","7"],"cellBackgrounds":[null,null,null`
	+ `,[252,175,62,255],null,null]}],["create","w214","rwt.widgets.GridItem",{"parent":"w99","in`
	+ `dex":106,"texts":["107","Bh","Bohrium","Transition metal","7","7"],"cellBackgrounds":[null`
	+ `,null,null,[252,175,62,255],null,null]}],["create","w215","rwt.widgets.GridItem",{"parent"`
	+ `:"w99","index":107,"texts":["108","Hs","Hassium","Transition metal","8","7"],"cellBackgrou`
	+ `nds":[null,null,null,[252,175,62,255],null,null]}],["create","w216","rwt.widgets.GridItem"`
	+ `,{"parent":"w99","index":108,"texts":["109","Mt","Meitnerium","Transition metal","9","7"],`
	+ `"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["create","w217","rwt.widg`
	+ `ets.GridItem",{"parent":"w99","index":109,"texts":["110","Ds","Darmstadtium","Transition m`
	+ `etal","10","7"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,null]}],["create",`
	+ `"w218","rwt.widgets.GridItem",{"parent":"w99","index":110,"texts":["111","Rg","Roentgenium`
	+ `","Transition metal","11","7"],"cellBackgrounds":[null,null,null,[252,175,62,255],null,nul`
	+ `l]}],["create","w219","rwt.widgets.GridItem",{"parent":"w99","index":111,"texts":["112","U`
	+ `ub","Ununbium","Transition metal","12","7"],"cellBackgrounds":[null,null,null,[252,175,62,`
	+ `255],null,null]}],["create","w220","rwt.widgets.GridItem",{"parent":"w99","index":112,"tex`
	+ `ts":["113","Uut","Ununtrium","Poor metal","13","7"],"cellBackgrounds":[null,null,null,[238`
	+ `,238,236,255],null,null]}],["create","w221","rwt.widgets.GridItem",{"parent":"w99","index"`
	+ `:113,"texts":["114","Uuq","Ununquadium","Poor metal","14","7"],"cellBackgrounds":[null,nul`
	+ `l,null,[238,238,236,255],null,null]}],["create","w222","rwt.widgets.GridItem",{"parent":"w`
	+ `99","index":114,"texts":["115","Uup","Ununpentium","Poor metal","15","7"],"cellBackgrounds`
	+ `":[null,null,null,[238,238,236,255],null,null]}],["create","w223","rwt.widgets.GridItem",{`
	+ `"parent":"w99","index":115,"texts":["116","Uuh","Ununhexium","Poor metal","16","7"],"cellB`
	+ `ackgrounds":[null,null,null,[238,238,236,255],null,null]}],["create","w224","rwt.widgets.G`
	+ `ridItem",{"parent":"w99","index":116,"texts":["117","Uus","Ununseptium","Halogen","17","7"`
	+ `],"cellBackgrounds":[null,null,null,[252,233,79,255],null,null]}],["create","w225","rwt.wi`
	+ `dgets.GridItem",{"parent":"w99","index":117,"texts":["118","Uuo","Ununoctium","Noble gas",`
	+ `"18","7"],"cellBackgrounds":[null,null,null,[114,159,207,255],null,null]}],["create","w226`
	+ `","rwt.widgets.Composite",{"parent":"w97","style":["BORDER"],"bounds":[10,464,988,25],"chi`
	+ `ldren":["w227"],"tabIndex":-1,"clientArea":[0,0,986,23]}],["create","w227","rwt.widgets.La`
	+ `bel",{"parent":"w226","style":["NONE"],"bounds":[10,10,966,3],"tabIndex":-1,"text":"Hydrog`
	+ `en (H)"}],["create","w228","rwt.widgets.Label",{"parent":"w97","style":["WRAP"],"bounds":[`
	+ `10,499,988,16],"tabIndex":-1,"foreground":[150,150,150,255],"font":[["Verdana","Lucida San`
	+ `s","Arial","Helvetica","sans-serif"],10,false,false],"text":"Shortcuts: [CTRL+F] - Filter `
	+ `| Sort by: [CTRL+R] - Number, [CTRL+Y] - Symbol, [CTRL+N] - Name, [CTRL+S] - Series, [CTRL`
	+ `+G] - Group, [CTRL+E] - Period"}],["set","w1",{"focusControl":"w99"}],["call","rwt.client.`
	+ `BrowserNavigation","addToHistory",{"entries":[["tableviewer","TableViewer"]]}]]}`;
