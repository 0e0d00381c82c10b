package sparkversion

import "testing"

func TestSetupPy(t *testing.T) {
	const f = "setup.py"
	runFileCases(t, []fileCase{
		{"install_requires", f, "from setuptools import setup\nsetup(\n    name='x',\n    install_requires=[\n        'pandas',\n        'pyspark==3.5.1',\n    ],\n)\n", []want{{"3.5", "3.5.1", 6, "pyspark==3.5.1"}}},
		{"list assigned first with marker", f, "pyspark_require_list = ['pyspark>=3.5.0,<3.6;python_version>=\"3.8\"']\nsetup(extras_require={'spark': pyspark_require_list})\n", []want{{"3.5", "", 1, "pyspark>=3.5.0,<3.6;python_version>=\"3.8\""}}},
		{"open range", f, "setup(install_requires=[\"pyspark<4\"])\n", nil},
		{"f-string is computed", f, "V = '3.5.1'\nsetup(install_requires=[f'pyspark=={V}', f\"pyspark==3.4.1\"])\n", nil},
		{"comment", f, "setup(install_requires=[\n    # 'pyspark==3.1.1',\n    'pyspark==3.5.0',\n])\n", []want{{"3.5", "3.5.0", 3, "pyspark==3.5.0"}}},
		{"docstring mentioning it", f, "\"\"\"Install with pip install pyspark==3.1.1.\"\"\"\nsetup()\n", nil},
		{"raw prefix", f, "setup(install_requires=[r'pyspark==3.5.2'])\n", []want{{"3.5", "3.5.2", 1, "pyspark==3.5.2"}}},
	})
}

func TestSetupCfg(t *testing.T) {
	const f = "setup.cfg"
	runFileCases(t, []fileCase{
		{"install_requires", f, "[metadata]\nname = x\n\n[options]\npackages = find:\ninstall_requires =\n    numpy\n    pyspark==3.4.1 ; python_version>\"3.7\"\n    # pyspark==3.1.1\n", []want{{"3.4", "3.4.1", 8, "pyspark==3.4.1 ; python_version>\"3.7\""}}},
		{"extras", f, "[options.extras_require]\nspark =\n    pyspark~=3.5.0\n", []want{{"3.5", "", 3, "pyspark~=3.5.0"}}},
		{"inline value", f, "[options]\ninstall_requires = pyspark==3.5.1\n", []want{{"3.5", "3.5.1", 2, "pyspark==3.5.1"}}},
		{"other section", f, "[tool:pytest]\naddopts =\n    pyspark==3.5.1\n", nil},
	})
}

func TestCondaEnv(t *testing.T) {
	const f = "environment.yml"
	runFileCases(t, []fileCase{
		{"conda fuzzy", f, "name: spark\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - pyspark=3.5.1\n", []want{{"3.5", "3.5.1", 6, "pyspark=3.5.1"}}},
		{"conda minor only", f, "dependencies:\n  - pyspark=3.5\n", []want{{"3.5", "", 2, "pyspark=3.5"}}},
		{"conda major only", f, "dependencies:\n  - pyspark=3\n", nil},
		{"channel and build", f, "dependencies:\n  - conda-forge::pyspark=3.4.1=pyhd8ed1ab_0\n", []want{{"3.4", "3.4.1", 2, "conda-forge::pyspark=3.4.1=pyhd8ed1ab_0"}}},
		{"exact", f, "dependencies:\n  - pyspark==3.3.2\n", []want{{"3.3", "3.3.2", 2, "pyspark==3.3.2"}}},
		{"space form", f, "dependencies:\n  - pyspark 3.5.0 pyhd8ed1ab_0\n", []want{{"3.5", "3.5.0", 2, "pyspark 3.5.0 pyhd8ed1ab_0"}}},
		{"range", f, "dependencies:\n  - pyspark>=3.5,<3.6\n", []want{{"3.5", "", 2, "pyspark>=3.5,<3.6"}}},
		{"open", f, "dependencies:\n  - pyspark>=3.2\n  - pyspark\n", nil},
		{"pip section", f, "dependencies:\n  - python=3.9.1\n  - pip\n  - pip:\n      - numpy==1.20.2\n      - pyspark==3.2.0\n", []want{{"3.2", "3.2.0", 6, "pyspark==3.2.0"}}},
		{"or", f, "dependencies:\n  - pyspark 3.4.1|3.5.1\n", nil},
		{"yaml extension", "environment-dev.yaml", "dependencies:\n  - pyspark=3.5.1\n", []want{{"3.5", "3.5.1", 2, "pyspark=3.5.1"}}},
		{"not yaml", f, "dependencies: [\n", nil},
	})
}
