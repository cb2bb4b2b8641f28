"""The exact-cut bonus a hand gave its cutter

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 12:15:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hands') as batch_op:
        batch_op.add_column(sa.Column('cut_bonus', sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('hands') as batch_op:
        batch_op.drop_column('cut_bonus')
